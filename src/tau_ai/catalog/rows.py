"""The row format of the built-in catalogue: one tuple per model, turned into Model objects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tau_ai.model import Model, ModelCost

# id, name, reasoning, images, context window, max output, input, output, cache read, cache write
Row = tuple[str, str, bool, bool, int, int, float, float, float, float]


@dataclass(frozen=True, slots=True)
class ProviderRows:
    """One provider's models, with what they share: API, base URL, key variable (empty when the
    provider is reached through a login only), and headers and compat every model sends."""

    provider: str
    api: str
    base_url: str
    api_key_env: str
    rows: tuple[Row, ...]
    headers: Mapping[str, str] = field(default_factory=dict)
    compat: Mapping[str, object] = field(default_factory=dict)

    def models(self) -> list[Model]:
        return [
            Model(
                id=model_id,
                api=self.api,
                provider=self.provider,
                base_url=self.base_url,
                name=name,
                reasoning=reasoning,
                input=("text", "image") if images else ("text",),
                context_window=context,
                max_tokens=max_out,
                cost=ModelCost(price_in, price_out, cache_read, cache_write),
                headers=dict(self.headers),
                compat=dict(self.compat),
            )
            for (
                model_id,
                name,
                reasoning,
                images,
                context,
                max_out,
                price_in,
                price_out,
                cache_read,
                cache_write,
            ) in self.rows
        ]
