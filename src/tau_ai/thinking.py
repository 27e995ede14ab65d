"""Thinking levels: what a requested level means for a given model (pure).

The user picks one of off/minimal/low/medium/high/xhigh. ``clamp_level`` is the one place a
level is fitted to the model (``off`` without reasoning; ``xhigh`` only where supported:
GPT-5.2 and later, Claude Opus 4.6 and 4.7, or ``compat.supportsXhigh``; else ``high``), and
``DEFAULT_BUDGETS`` the token budgets of budget-style APIs. Each converter under
``tau_ai/apis`` turns the clamped level into its own API's words; ``claude_effort`` gives
Claude's adaptive-thinking effort (Anthropic's API, Bedrock and Vertex alike).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tau_agent.provider import ThinkingLevel
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

_XHIGH_MODELS = re.compile(r"gpt-5\.(?:[2-9]|\d\d)|opus-4[-.][67]", re.IGNORECASE)
# Claude models whose effort has an "xhigh" of its own (between high and max); on Opus 4.6
# the level above high is "max" (Anthropic's effort documentation).
_NATIVE_XHIGH = re.compile(r"opus[- ]4[-. ]7", re.IGNORECASE)
_CLAUDE_EFFORT: Mapping[ThinkingLevel, str] = {
    "minimal": "low",
    "low": "low",
    "medium": "medium",
    "high": "high",
    "xhigh": "max",
}


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


def claude_effort(model: Model, level: ThinkingLevel) -> str:
    """Claude's ``output_config.effort`` for a clamped ``level`` (not ``off``): ``xhigh`` is
    ``xhigh`` on Opus 4.7 (by id or name: application inference profiles hide the id), else
    ``max``; ``minimal`` is ``low``."""
    if level == "xhigh" and any(_NATIVE_XHIGH.search(name) for name in (model.id, model.name)):
        return "xhigh"
    return _CLAUDE_EFFORT[level]
