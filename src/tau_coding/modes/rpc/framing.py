"""RPC framing: one JSON value per line, lines end with LF.

Input is split on the byte ``\\n`` only; one ``\\r`` before it is dropped. Nothing else ends
a line: U+2028 and U+2029 (which some line readers treat as breaks) are ordinary characters
inside a JSON string. A last line without its LF still counts when the input ends. Output
lines are compact JSON in UTF-8, each ending with ``\\n``; JSON escapes every control
character, so an encoded value never contains a raw LF.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import orjson

MAX_LINE_BYTES = 64 * 1024 * 1024  # one command (a prompt with images) may be large, not unbounded


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line that is not a JSON object; ``error`` says why in one line."""

    error: str


def decode_line(line: bytes) -> dict[str, Any] | BadLine:
    """One input line (without its LF) as a command object, or why it is not one."""
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        return BadLine(f"Failed to parse command: {exc}")
    if not isinstance(value, dict):
        return BadLine(f"Failed to parse command: expected a JSON object, got {_kind(value)}")
    return value


def encode_line(value: Any) -> bytes:
    """``value`` as one output line (compact UTF-8 JSON plus LF)."""
    return orjson.dumps(value, option=orjson.OPT_APPEND_NEWLINE)


class LineSplitter:
    """Bytes in, complete lines out (pure; feed it chunks of any size).

    A line longer than ``max_bytes`` is reported once as a BadLine and the rest of it, up to
    its LF, is dropped, so one bad line costs bounded memory and loses nothing after it.
    """

    def __init__(self, max_bytes: int = MAX_LINE_BYTES) -> None:
        self._buffer = bytearray()
        self._max = max_bytes
        self._skipping = False

    def feed(self, chunk: bytes) -> list[bytes | BadLine]:
        out: list[bytes | BadLine] = []
        start = 0
        while (index := chunk.find(b"\n", start)) >= 0:
            piece, start = chunk[start:index], index + 1
            if self._skipping:
                self._skipping = False
                continue
            if self._buffer:
                self._buffer += piece
                piece = self._take()
            out.append(piece if len(piece) <= self._max else self._too_long())
        if not self._skipping:
            self._buffer += chunk[start:]
            if len(self._buffer) > self._max:
                self._buffer.clear()
                self._skipping = True
                out.append(self._too_long())
        return out

    def finish(self) -> list[bytes | BadLine]:
        """The input ended: a last line without LF still counts."""
        if self._skipping or not self._buffer.strip():
            self._buffer.clear()
            return []
        return [self._take()]

    def _take(self) -> bytes:
        line = bytes(self._buffer)
        self._buffer.clear()
        return line

    def _too_long(self) -> BadLine:
        return BadLine(f"Failed to parse command: line longer than {self._max} bytes")


async def read_lines(
    reader: asyncio.StreamReader, max_bytes: int = MAX_LINE_BYTES
) -> AsyncIterator[bytes | BadLine]:
    """Lines of ``reader`` (without LF) until it ends."""
    splitter = LineSplitter(max_bytes)
    while chunk := await reader.read(256 * 1024):
        for line in splitter.feed(chunk):
            yield line
    for line in splitter.finish():
        yield line


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}.get(
        type(value), type(value).__name__
    )


__all__ = ["MAX_LINE_BYTES", "BadLine", "LineSplitter", "decode_line", "encode_line", "read_lines"]
