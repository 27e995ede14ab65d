"""encode_body: a request body as compact UTF-8 JSON, with orjson.

What a caller may rely on: the output is what ``json.dumps(body, separators=(",", ":"),
ensure_ascii=False)`` means, keys in insertion order, ``orjson.Fragment`` values embedded
verbatim. A string orjson refuses (a lone UTF-16 surrogate, which the standard library would
let through and no UTF-8 encoder can write) is written with JSON ``\\uXXXX`` escapes instead,
and so is an integer past 64 bits; the rest of the body is untouched.

A ``Spliced`` value is JSON text held by reference, like an ``orjson.Fragment`` (which hides its
bytes): ``encode_body`` embeds it, ``encode_body_parts`` leaves it out of the encoded bytes and
gives it as a part of its own, so a long history (a request checkpoint's tens of MB) is sent
from where it is kept (in memory, or still in its file: ``stored_text.StoredText``) instead of
being copied into every body.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import orjson

from tau_ai.stored_text import StoredText

_OPTIONS = orjson.OPT_NON_STR_KEYS
_INT64 = range(-(2**63), 2**64)


class Spliced:
    """Encoded JSON text (a value, or several list items joined by commas) that a body holds
    by reference. Its ``data`` is never changed."""

    __slots__ = ("data",)

    def __init__(self, data: Part) -> None:
        self.data = data


class BodyParts:
    """A request body as consecutive parts, sent one after the other; ``len`` is the whole's."""

    __slots__ = ("_size", "parts")

    def __init__(self, parts: Sequence[Part]) -> None:
        self.parts = tuple(parts)
        self._size = sum(map(len, self.parts))

    def __len__(self) -> int:
        return self._size

    def joined(self) -> bytes:
        return b"".join(map(_bytes, self.parts))

    def slices(self, size: int) -> Iterator[bytes | memoryview]:
        """The body in order, in pieces of at most ``size`` bytes (views of the parts in
        memory, reads of those in a file)."""
        for part in self.parts:
            if isinstance(part, StoredText):
                yield from part.slices(size)
                continue
            view = memoryview(part)
            for at in range(0, len(view), size):
                yield view[at : at + size]


Part = bytes | StoredText


def _bytes(part: Part) -> bytes:
    return part if isinstance(part, bytes) else bytes(part)


RequestBody = bytes | BodyParts
"""What a sender sends: one byte string, or parts (``encode_body_parts``)."""


def whole(body: RequestBody) -> bytes:
    """``body`` as one byte string (a copy of a ``BodyParts``' parts, for a signature's hash)."""
    return body if isinstance(body, bytes) else body.joined()


def _embed(value: object) -> orjson.Fragment:
    if isinstance(value, Spliced):
        return orjson.Fragment(_bytes(value.data))
    raise TypeError(f"Type is not JSON serializable: {type(value).__name__}")


def encode_body(body: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON of ``body`` (see the module docstring)."""
    try:
        return orjson.dumps(body, default=_embed, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return orjson.dumps(escaped(body), default=_embed, option=_OPTIONS)


def encode_body_parts(body: Mapping[str, Any]) -> RequestBody:
    """``encode_body(body)``, with each ``Spliced`` value's bytes a part of its own rather than
    copied in: the parts, joined, are exactly ``encode_body(body)``. One byte string when the
    body holds no ``Spliced`` value."""
    spliced: list[Part] = []

    def mark(value: object) -> orjson.Fragment:
        if isinstance(value, Spliced):
            spliced.append(value.data)
            return _MARK  # a NUL byte, which orjson writes escaped everywhere else
        raise TypeError(f"Type is not JSON serializable: {type(value).__name__}")

    try:
        encoded = orjson.dumps(body, default=mark, option=_OPTIONS)
    except orjson.JSONEncodeError:
        spliced.clear()
        encoded = orjson.dumps(escaped(body), default=mark, option=_OPTIONS)
    if not spliced:
        return encoded
    around = encoded.split(b"\0")
    assert len(around) == len(spliced) + 1
    parts: list[Part] = [around[0]]
    for data, after in zip(spliced, around[1:], strict=True):
        parts += [data, after]
    return BodyParts([part for part in parts if part])


_MARK = orjson.Fragment(b"\0")


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
