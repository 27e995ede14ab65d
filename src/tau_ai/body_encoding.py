"""encode_body: a request body as compact UTF-8 JSON, with orjson.

What a caller may rely on: the output is what ``json.dumps(body, separators=(",", ":"),
ensure_ascii=False)`` means, keys in insertion order, ``orjson.Fragment`` values embedded
verbatim. A string orjson refuses (a lone UTF-16 surrogate, which the standard library would
let through and no UTF-8 encoder can write) is written with JSON ``\\uXXXX`` escapes instead,
and so is an integer past 64 bits; the rest of the body is untouched.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS
_INT64 = range(-(2**63), 2**64)


def encode_body(body: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON of ``body`` (see the module docstring)."""
    try:
        return orjson.dumps(body, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return orjson.dumps(escaped(body), option=_OPTIONS)


def escaped(value: Any) -> Any:
    """``value`` with every string orjson refuses, and every integer past 64 bits, replaced by
    a Fragment of its escaped JSON; other values are kept (containers rebuilt only on the way)."""
    if isinstance(value, str):
        return value if _encodable(value) else orjson.Fragment(json.dumps(value))
    if isinstance(value, Mapping):
        if all(not isinstance(key, str) or _encodable(key) for key in value):
            return {key: escaped(item) for key, item in value.items()}
        members = (
            json.dumps(str(key)).encode("ascii") + b":" + orjson.dumps(escaped(item), option=_OPTIONS)
            for key, item in value.items()
        )
        return orjson.Fragment(b"{" + b",".join(members) + b"}")
    if isinstance(value, list | tuple):
        return [escaped(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and value not in _INT64:
        return orjson.Fragment(str(value))
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
