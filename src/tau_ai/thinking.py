"""Thinking levels: what a requested level means for a given model (pure).

The user picks one of off/minimal/low/medium/high/xhigh; each API expresses reasoning its own
way. These functions are the single place where a level is clamped to what the model
supports and turned into a budget or an effort word, so every converter agrees:

* ``clamp_level``: ``off`` for a model without reasoning; ``xhigh`` only where the model
  supports it (GPT-5.2 and later GPT-5 versions, Claude Opus 4.6, or ``compat.supportsXhigh``),
  otherwise ``high``.
* ``thinking_budget`` / ``max_tokens_for``: token budgets for budget-style APIs (Anthropic
  before 4.6, Gemini 2.5), and an output limit raised to leave room for the budget.
* ``openai_effort``, ``anthropic_effort``, ``google_level``: the effort words of the other APIs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tau_agent.provider import THINKING_LEVELS, ThinkingLevel
from tau_ai.model import Model

DEFAULT_BUDGETS: Mapping[ThinkingLevel, int] = {
    "off": 0,
    "minimal": 1024,
    "low": 2048,
    "medium": 8192,
    "high": 16384,
    "xhigh": 32768,
}
DEFAULT_MAX_OUTPUT = 32_000

_XHIGH_MODELS = re.compile(r"gpt-5\.(?:[2-9]|\d\d)|opus-4[-.]6", re.IGNORECASE)
_ADAPTIVE_ANTHROPIC = re.compile(r"(?:opus|sonnet)-4[-.]6", re.IGNORECASE)
_GEMINI_3 = re.compile(r"gemini-3", re.IGNORECASE)
_GEMINI_3_PRO = re.compile(r"gemini-3(?:\.\d+)?-pro", re.IGNORECASE)


def parse_level(text: str) -> ThinkingLevel:
    """A level from user input; raises ValueError with a one-line message for anything else."""
    value = text.strip().lower()
    for level in THINKING_LEVELS:
        if value == level:
            return level
    raise ValueError(f"unknown thinking level {text!r}; expected one of {', '.join(THINKING_LEVELS)}")


def supports_xhigh(model: Model) -> bool:
    """Whether the model accepts the highest level as such (else it is clamped to high)."""
    flag = model.compat.get("supportsXhigh")
    if isinstance(flag, bool):
        return flag
    return bool(_XHIGH_MODELS.search(model.id))


def clamp_level(model: Model, level: ThinkingLevel) -> ThinkingLevel:
    """The level actually used for ``model`` when ``level`` was asked for."""
    if not model.reasoning or level == "off":
        return "off"
    if level == "xhigh" and not supports_xhigh(model):
        return "high"
    return level


def thinking_budget(
    model: Model, level: ThinkingLevel, budgets: Mapping[ThinkingLevel, int] | None = None
) -> int:
    """Thinking tokens for ``level`` on ``model`` (0 when off); ``budgets`` overrides defaults."""
    level = clamp_level(model, level)
    table = {**DEFAULT_BUDGETS, **(budgets or {})}
    return table[level]


def max_tokens_for(model: Model, requested: int | None, budget: int) -> tuple[int, int]:
    """(max output tokens, thinking budget) for a request.

    Without a request the output limit is the model's, capped at 32k; a thinking budget is
    added on top (within the model's limit), and shrunk if it would leave under 1024 tokens
    for the visible answer.
    """
    base = requested if requested is not None else min(model.max_tokens, DEFAULT_MAX_OUTPUT)
    if budget <= 0:
        return min(base, model.max_tokens), 0
    total = min(base + budget, model.max_tokens)
    if total - budget < 1024:
        budget = max(total - 1024, 0)
    return total, budget


def openai_effort(model: Model, level: ThinkingLevel) -> str | None:
    """``reasoning_effort`` / ``reasoning.effort`` for OpenAI-style APIs, None when off.

    ``compat.reasoningEffortMap`` may rename levels for hosts with their own words.
    """
    level = clamp_level(model, level)
    if level == "off":
        return None
    mapping = model.compat.get("reasoningEffortMap")
    if isinstance(mapping, Mapping) and isinstance(mapping.get(level), str):
        return str(mapping[level])
    return level


def uses_adaptive_thinking(model: Model) -> bool:
    """Claude 4.6 models take ``thinking: adaptive`` with an effort instead of a budget."""
    return bool(_ADAPTIVE_ANTHROPIC.search(model.id))


def anthropic_effort(model: Model, level: ThinkingLevel) -> str | None:
    """The effort word for Claude's adaptive thinking (xhigh becomes ``max``), None when off."""
    level = clamp_level(model, level)
    if level == "off":
        return None
    if level == "xhigh":
        return "max"
    return "low" if level == "minimal" else level


def google_level(model: Model, level: ThinkingLevel) -> str | None:
    """Gemini 3's ``thinkingLevel`` (Pro knows only LOW and HIGH), None for other models or off."""
    if not _GEMINI_3.search(model.id):
        return None
    level = clamp_level(model, level)
    if level == "off":
        return None
    if _GEMINI_3_PRO.search(model.id):
        return "LOW" if level in ("minimal", "low") else "HIGH"
    return {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM"}.get(level, "HIGH")
