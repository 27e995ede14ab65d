"""JSON for session lines: orjson when it is installed (about twice as fast), else the stdlib.

Both produce the same bytes for what sessions hold: compact, UTF-8, non-ASCII kept as is
(like Pi's ``JSON.stringify``). A string with a lone surrogate, which UTF-8 cannot carry
(models do stream them), is written with ``\\u`` escapes instead of failing, and read back
by the stdlib parser, since orjson refuses such escapes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def _stdlib_dumps(value: Any) -> bytes:
    try:
        return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    except UnicodeEncodeError:
        return (json.dumps(value, separators=(",", ":")) + "\n").encode()


def _pick() -> tuple[Callable[[bytes], Any], Callable[[Any], bytes]]:
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a declared dependency
        return json.loads, _stdlib_dumps

    option = orjson.OPT_APPEND_NEWLINE
    fast_loads = orjson.loads

    def dumps(value: Any) -> bytes:
        try:
            return orjson.dumps(value, option=option)
        except TypeError:  # lone surrogates, or ints beyond 64 bits
            return _stdlib_dumps(value)

    def loads(raw: bytes) -> Any:
        try:
            return fast_loads(raw)
        except ValueError:  # lone surrogate escapes; anything else fails again below
            return json.loads(raw)

    return loads, dumps


loads, dumps_line = _pick()
"""``loads(bytes) -> value`` (raises ValueError) and ``dumps_line(value) -> b'...\\n'``."""

__all__ = ["dumps_line", "loads"]
