"""Models of ``generated.json`` (written by scripts/regenerate_catalog.py), as Model objects.

Row shape: id, name, reasoning, images, context window, max output, then input, output,
cache-read and cache-write prices (US dollars per million tokens), then optionally an object of
extras: ``api`` and ``base_url`` where the model differs from its provider, ``compat``, ``headers``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from pathlib import Path

from tau_ai.catalog.rows import ProviderRows
from tau_ai.model import Model, ModelCost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from typing import Any

DATA = Path(__file__).with_name("generated.json")
_TEXT = ("text",)
_IMAGES = ("text", "image")


def read_catalogue() -> dict[str, Any]:
    """The whole data file, parsed (source, pi_counts, skipped, providers).

    With the standard library's parser: importing orjson (a large native module that loads
    datetime, uuid and platform) costs ``tau --list-models --all`` more than its faster parse saves."""
    data: dict[str, Any] = json.loads(DATA.read_bytes())
    return data


def generated_models(
    *, skip: Collection[tuple[str, str]] = (), providers: Mapping[str, ProviderRows] | None = None
) -> list[Model]:
    """Every generated model but those ``skip`` names (provider, id); a provider that
    ``providers`` hand-writes lends its API and base URL to the models that do not name their own."""
    written = providers or {}
    out: list[Model] = []
    for name, provider in read_catalogue()["providers"].items():
        own = written.get(name)
        api: str = own.api if own is not None else provider["api"]
        base_url: str = own.base_url if own is not None else provider["base_url"]
        for row in provider["models"]:
            if skip and (name, row[0]) in skip:
                continue
            cost = ModelCost(float(row[6]), float(row[7]), float(row[8]), float(row[9]))
            images = _IMAGES if row[3] else _TEXT
            if len(row) == 10:  # the common row: positional arguments, the cheapest call
                out.append(
                    Model(row[0], api, name, base_url, row[1], row[2], images, row[4], row[5], cost, {}, {})
                )
                continue
            extras: dict[str, Any] = row[10]
            out.append(
                Model(
                    id=row[0],
                    api=extras.get("api", api),
                    provider=name,
                    base_url=extras.get("base_url", provider["base_url"] if "api" in extras else base_url),
                    name=row[1],
                    reasoning=row[2],
                    input=images,
                    context_window=row[4],
                    max_tokens=row[5],
                    cost=cost,
                    headers=extras.get("headers", {}),
                    compat=extras.get("compat", {}),
                )
            )
    return out
