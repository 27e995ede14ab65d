"""The ``subagents.*`` settings (docs/settings.md), read once when the session is built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DEFAULT_MAX_DEPTH = 1
DEFAULT_MAX_PARALLEL = 4
DEFAULT_MAX_TURNS = 50


@dataclass(frozen=True, slots=True)
class SubagentLimits:
    """``max_depth``: how deep children may nest (1: a child may not start children);
    ``max_parallel``: children of one agent running at once; ``max_turns`` and ``max_tokens``
    (0: none) bound each child."""

    max_depth: int = DEFAULT_MAX_DEPTH
    max_parallel: int = DEFAULT_MAX_PARALLEL
    max_turns: int = DEFAULT_MAX_TURNS
    max_tokens: int = 0

    @classmethod
    def from_settings(cls, get: Callable[[str, Any], Any]) -> SubagentLimits:
        def number(key: str, default: int, least: int) -> int:
            value = get(key, default)
            return (
                value
                if isinstance(value, int) and not isinstance(value, bool) and value >= least
                else default
            )

        return cls(
            max_depth=number("subagents.maxDepth", DEFAULT_MAX_DEPTH, 0),
            max_parallel=number("subagents.maxParallel", DEFAULT_MAX_PARALLEL, 1),
            max_turns=number("subagents.maxTurns", DEFAULT_MAX_TURNS, 1),
            max_tokens=number("subagents.maxTokens", 0, 0),
        )
