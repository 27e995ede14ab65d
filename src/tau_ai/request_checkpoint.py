"""Checkpoint: a conversation's wire conversion up to one of its user messages, as bytes.

A ``RequestCache`` makes one (``checkpoint``) and takes a conversation up from one
(``resume``); ``encode``/``decode`` turn it into the bytes of a file and back. ``key`` names
what the conversion depends on besides the messages (the model as configured, the system
prompt, this format): a checkpoint under another key is never used. The messages it covers
are the caller's to identify; a checkpoint does not hold them.

The bytes: a JSON line (the key, the message count, the handoff's memory, the length of
every item), then the items as one JSON array, then the CRC-32 of everything before it.
``decode`` returns None for anything that is not such bytes (cut short, altered, another
format), so a stale or damaged file costs a full conversion, never a wrong request.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass

import orjson

from tau_ai.handoff import HandoffMemory
from tau_ai.model import Model

FORMAT = "tau-request-checkpoint/1"


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """``items``: the wire items converted before the user message that is the
    ``messages``-th message, as one JSON array, ``lengths`` the length of each item's JSON
    in it; ``handoff``: what the handoff transform remembered then."""

    key: str
    messages: int
    items: bytes
    lengths: list[int]
    handoff: HandoffMemory

    def item_bytes(self) -> list[bytes]:
        """Each item's JSON."""
        out, at, items = [], 1, self.items
        for length in self.lengths:
            out.append(items[at : at + length])
            at += length + 1
        return out


def checkpoint_key(model: Model, system_prompt: str) -> str:
    """A digest of everything besides the messages that a conversion depends on."""
    text = repr((FORMAT, model, system_prompt))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def encode(checkpoint: Checkpoint) -> bytes:
    """The checkpoint's bytes."""
    return b"".join(encode_parts(checkpoint))


def encode_parts(checkpoint: Checkpoint) -> list[bytes]:
    """The checkpoint's bytes in pieces, to be written one after another (no copy of the items)."""
    head = {
        "format": FORMAT,
        "key": checkpoint.key,
        "messages": checkpoint.messages,
        "toolIds": checkpoint.handoff.tool_ids,
        "droppedCalls": checkpoint.handoff.dropped_calls,
        "lengths": checkpoint.lengths,
    }
    parts = [orjson.dumps(head) + b"\n", checkpoint.items]
    crc = zlib.crc32(parts[1], zlib.crc32(parts[0]))
    return [*parts, crc.to_bytes(4, "big")]


def decode(data: bytes) -> Checkpoint | None:
    """The checkpoint in ``data``, or None if ``data`` is not one, whole and unaltered."""
    if len(data) < 4 or zlib.crc32(memoryview(data)[:-4]) != int.from_bytes(data[-4:], "big"):
        return None
    end = data.find(b"\n")
    try:
        head = orjson.loads(data[:end])
        if head["format"] != FORMAT:
            return None
        key, messages, lengths = head["key"], head["messages"], head["lengths"]
        tool_ids = [(str(old), str(new)) for old, new in head["toolIds"]]
        dropped = [str(call) for call in head["droppedCalls"]]
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return None
    if (
        end < 0
        or not isinstance(key, str)
        or type(messages) is not int
        or not isinstance(lengths, list)
        or any(type(n) is not int or n < 0 for n in lengths)
        or end + 1 + sum(lengths) + max(len(lengths) - 1, 0) + 2 != len(data) - 4
    ):
        return None
    items = data[end + 1 : -4]
    if not _is_array(items, lengths):
        return None
    return Checkpoint(key, messages, items, lengths, HandoffMemory(tool_ids, dropped))


def _is_array(items: bytes, lengths: list[int]) -> bool:
    """Whether ``items`` is ``[`` then the items, comma-separated, then ``]`` (by its bytes)."""
    if items[:1] != b"[" or items[-1:] != b"]":
        return False
    at = 1
    for length in lengths[:-1]:
        at += length
        if items[at] != 0x2C:  # a comma
            return False
        at += 1
    return True


__all__ = ["FORMAT", "Checkpoint", "checkpoint_key", "decode", "encode", "encode_parts"]
