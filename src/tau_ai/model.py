"""Model: what an adapter needs to know about one model of one provider.

Plain data, read from no file: the built-in catalogue and the app's models.json both produce
these. Prices are US dollars per million tokens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class ModelCost:
    """Prices in US dollars per million tokens: input, output, cache reads and cache writes."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0


@dataclass(frozen=True, slots=True)
class Model:
    """One model of one provider: how to reach it (``api``, ``base_url``, ``headers``,
    ``compat``) and what it offers (reasoning, inputs, context window, output limit, prices)."""

    id: str
    api: str
    provider: str
    base_url: str
    name: str = ""
    reasoning: bool = False
    input: tuple[str, ...] = ("text",)
    context_window: int = 128_000
    max_tokens: int = 16_384
    cost: ModelCost = field(default_factory=ModelCost)
    headers: Mapping[str, str] = field(default_factory=dict)
    compat: Mapping[str, Any] = field(default_factory=dict)

    @property
    def supports_images(self) -> bool:
        return "image" in self.input
