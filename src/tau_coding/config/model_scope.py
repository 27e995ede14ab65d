"""The models Ctrl+P (and RPC's ``cycle_model``) cycles through: ``--models`` or ``enabledModels``.

Patterns as Pi 0.73 reads them: a glob (``*``, ``?``, ``[``) matched without regard to case
against ``provider/id`` or the bare id, or anything ``--model`` accepts (an exact or fuzzy id);
either may end in ``:level`` (off, minimal, low, medium, high, xhigh), the thinking level the
cycle switches to with that model. Pure: the caller passes the available models.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass

from tau_agent.provider import THINKING_LEVELS, ThinkingLevel
from tau_ai.model import Model
from tau_coding.config.model_resolve import ModelNotFoundError, resolve_model


@dataclass(frozen=True, slots=True)
class ScopedModel:
    """One model of the cycle; ``thinking_level`` None keeps the session's level on a switch."""

    model: Model
    thinking_level: ThinkingLevel | None = None

    @property
    def label(self) -> str:
        return f"{self.model.provider}/{self.model.id}"


def split_patterns(text: str) -> list[str]:
    """``--models a,b:high`` as its patterns (blank ones dropped)."""
    return [part.strip() for part in text.split(",") if part.strip()]


def resolve_model_scope(
    patterns: Sequence[str], models: Sequence[Model]
) -> tuple[list[ScopedModel], list[str]]:
    """The scoped models in pattern order (each model once, the first pattern naming it wins)
    and one warning line per pattern that matches nothing."""
    scoped: list[ScopedModel] = []
    warnings: list[str] = []
    seen: set[tuple[str, str]] = set()

    def add(model: Model, level: ThinkingLevel | None) -> None:
        if (model.provider, model.id) not in seen:
            seen.add((model.provider, model.id))
            scoped.append(ScopedModel(model, level))

    for pattern in patterns:
        if any(c in pattern for c in "*?["):
            glob, level = _level_suffix(pattern)
            hits = [m for m in models if _glob(glob, f"{m.provider}/{m.id}") or _glob(glob, m.id)]
            for model in hits:
                add(model, level)
        else:
            try:
                resolved = resolve_model(pattern, models)
            except ModelNotFoundError:
                hits = []
            else:
                hits = [resolved.model]
                add(resolved.model, resolved.thinking_level)
        if not hits:
            warnings.append(f'no models match pattern "{pattern}"')
    return scoped, warnings


def _level_suffix(pattern: str) -> tuple[str, ThinkingLevel | None]:
    head, sep, tail = pattern.rpartition(":")
    for level in THINKING_LEVELS:
        if sep and tail == level:
            return head, level
    return pattern, None


def _glob(pattern: str, text: str) -> bool:
    return fnmatch.fnmatchcase(text.lower(), pattern.lower())


__all__ = ["ScopedModel", "resolve_model_scope", "split_patterns"]
