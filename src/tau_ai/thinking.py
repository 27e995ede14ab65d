"""Thinking levels: what a requested level means for a given model (pure).

The user picks one of off/minimal/low/medium/high/xhigh. ``clamp_level`` is the one place a
level is fitted to the model (``off`` without reasoning; ``xhigh`` only where supported:
GPT-5.2 and later, Claude Opus 4.6, or ``compat.supportsXhigh``; else ``high``), and
``DEFAULT_BUDGETS`` the token budgets of budget-style APIs. Each converter under
``tau_ai/apis`` turns the clamped level into its own API's words.
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

_XHIGH_MODELS = re.compile(r"gpt-5\.(?:[2-9]|\d\d)|opus-4[-.]6", re.IGNORECASE)


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
