"""Models of ``generated.json`` (written by scripts/regenerate_catalog.py), as Model objects.

Row shape: id, name, reasoning, images, context window, max output, then input, output,
cache-read and cache-write prices (US dollars per million tokens), then optionally an object of
extras: ``api`` and ``base_url`` where the model differs from its provider, ``compat``, ``headers``.
"""

from __future__ import annotations

import json
from collections.abc import Collection
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
    *, skip: Collection[tuple[str, str]] = (), providers: Collection[ProviderRows] = ()
) -> list[Model]:
    """Every generated model but those ``skip`` names (provider, id). A provider hand-written in
    ``providers`` (one ProviderRows per API it speaks) lends the group speaking a model's API its
    base URL, headers and compat (over the generated ones); a model that names no API of its own
    and matches no group takes the provider's first group's API and base URL."""
    groups: dict[str, list[ProviderRows]] = {}
    for rows in providers:
        groups.setdefault(rows.provider, []).append(rows)
    out: list[Model] = []
    for name, provider in read_catalogue()["providers"].items():
        own = groups.get(name, [])
        default = own[0] if own else None
        by_api: dict[str, ProviderRows] = {}
        for rows in reversed(own):  # the first group of an API wins
            by_api[rows.api] = rows
        for row in provider["models"]:
            if skip and (name, row[0]) in skip:
                continue
            cost = ModelCost(float(row[6]), float(row[7]), float(row[8]), float(row[9]))
            images = _IMAGES if row[3] else _TEXT
            extras: dict[str, Any] = row[10] if len(row) > 10 else {}
            api: str = extras.get("api", provider["api"])
            group = by_api.get(api)
            if group is None and default is not None and "api" not in extras:
                group = default
            headers, compat = extras.get("headers", {}), extras.get("compat", {})
            if group is not None:
                api, base_url = group.api, group.base_url
                if group.headers or group.compat:
                    headers, compat = {**headers, **group.headers}, {**compat, **group.compat}
            else:
                base_url = extras.get("base_url", provider["base_url"])
            model = Model(
                row[0], api, name, base_url, row[1], row[2], images, row[4], row[5], cost, headers, compat
            )
            out.append(model)
    return out
