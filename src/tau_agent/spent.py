"""Spent: tokens and cost summed over replies (and over the model calls of tools that make
their own), as Pi's footer and ``get_session_stats`` add them up. Kept apart from the session's
statistics so that a screen showing running totals imports nothing more to hold them."""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows the name
if TYPE_CHECKING:
    from tau_agent.messages import Usage


@dataclass(slots=True)
class Spent:
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cost: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write

    def add(self, usage: Usage) -> None:
        self.input += usage.input
        self.output += usage.output
        self.cache_read += usage.cache_read
        self.cache_write += usage.cache_write
        self.cost += usage.cost.total


__all__ = ["Spent"]
