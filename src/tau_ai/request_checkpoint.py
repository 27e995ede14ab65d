"""Checkpoint: a conversation's wire conversion up to one of its user messages, as bytes.

A ``RequestCache`` makes one (``checkpoint``) and takes a conversation up from one
(``resume``); ``write``/``read`` put it in a file and back. ``key`` names what the conversion
depends on besides the messages (the model as configured, this format): a checkpoint under
another key is never used. The items a converter starts with (an API's system-prompt item) are
not in it, so a system prompt that changed since (it names the date) does not void it. The messages it covers are the caller's to
identify; a checkpoint does not hold them.

The converted items are kept as a few pieces of JSON text: runs of items, comma-separated
(each taken up as one ``body_encoding.Spliced`` item: a body is sent with the run's bytes as
they were read, not one fragment per message, nor a copy), and the last item alone, which a
converter may need to read back. A conversation taken up from a checkpoint keeps its runs as
they were, so the next checkpoint writes them again without encoding them. On disk: a JSON line (format, key, message count, the handoff's memory,
the length of each piece), the pieces, then the CRC-32 of everything before it. ``read``
returns None for anything that is not such bytes (cut short, altered, another format), so a
stale or damaged file costs a full conversion, never a wrong request.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass
from typing import BinaryIO
from urllib.parse import urlsplit

import orjson

from tau_ai.body_encoding import Spliced
from tau_ai.handoff import HandoffMemory
from tau_ai.model import Model
from tau_ai.stored_text import StoredText, open_file

FORMAT = "tau-request-checkpoint/3"
IN_FILE = 1 << 20
Piece = bytes | memoryview | StoredText
_MAX_HEAD = 1 << 26


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """``pieces``: the JSON text of the wire items converted before the user message that is
    the ``messages``-th message (see the module docstring); ``handoff``: what the handoff
    transform remembered then."""

    key: str
    messages: int
    pieces: list[Piece]
    handoff: HandoffMemory

    def fragments(self) -> list[Spliced | orjson.Fragment]:
        """The pieces as items of a converted list: each run one ``Spliced`` item, the last
        item a Fragment."""
        pieces = [bytes(p) if isinstance(p, memoryview) else p for p in self.pieces]
        if not pieces:
            return []
        return [*map(Spliced, pieces[:-1]), orjson.Fragment(bytes(pieces[-1]))]


def checkpoint_key(model: Model) -> str:
    """A digest of everything besides the messages that the checkpointed items may depend on:
    the model's identity, what it accepts, its compat settings and its host (detected quirks
    come from the host; not the port, which a local server picks anew per run). Not the
    system prompt, whose own item is made anew for every request; not the request's settings
    (headers, limits, costs), which are not in the items."""
    url = urlsplit(model.base_url)
    host = url._replace(netloc=url.hostname or "").geturl()
    text = repr(
        (FORMAT, model.id, model.api, model.provider, host, model.reasoning, model.input, model.compat)
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def pieces_of(items: list[Spliced | orjson.Fragment]) -> list[Piece]:
    """``items`` as pieces: a ``Spliced`` run as it is, the fragments between them one dump
    each (orjson gives every dump a buffer of at least 4 KiB, so not one per item) seen
    through a view, and the last item a piece of its own."""
    if not items:
        return []
    pieces: list[Piece] = []
    run: list[Spliced | orjson.Fragment] = []
    for item in items[:-1]:
        if isinstance(item, Spliced):
            pieces += [*_dumped(run), item.data]
            run = []
        else:
            run.append(item)
    return [*pieces, *_dumped(run), *_dumped(items[-1:])]


def _dumped(run: list[Spliced | orjson.Fragment]) -> list[Piece]:
    if not run:
        return []
    last = run[-1]
    if isinstance(last, Spliced):
        return [last.data]
    return [memoryview(orjson.dumps(run))[1:-1]]


def write(checkpoint: Checkpoint, out: BinaryIO) -> None:
    """Write the checkpoint's bytes to ``out``."""
    head = {
        "format": FORMAT,
        "key": checkpoint.key,
        "messages": checkpoint.messages,
        "toolIds": checkpoint.handoff.tool_ids,
        "droppedCalls": checkpoint.handoff.dropped_calls,
        "lengths": [len(piece) for piece in checkpoint.pieces],
    }
    line = orjson.dumps(head) + b"\n"
    out.write(line)
    crc = zlib.crc32(line)
    for piece in checkpoint.pieces:
        for data in piece.slices() if isinstance(piece, StoredText) else (piece,):
            out.write(data)
            crc = zlib.crc32(data, crc)
    out.write(crc.to_bytes(4, "big"))


def read(source: BinaryIO, in_file: bool = False) -> Checkpoint | None:
    """The checkpoint ``source`` holds from where it stands to its end, or None if it is not
    one, whole and unaltered. With ``in_file``, every piece of at least ``IN_FILE`` bytes but
    the last is left in ``source``'s file, read when it is sent (``StoredText``: the caller
    vouches that the file is only ever replaced by a rename)."""
    line = source.readline(_MAX_HEAD)
    try:
        head = orjson.loads(line)
        if head["format"] != FORMAT:
            return None
        key, messages, lengths = head["key"], head["messages"], head["lengths"]
        tool_ids = [(str(old), str(new)) for old, new in head["toolIds"]]
        dropped = [str(call) for call in head["droppedCalls"]]
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return None
    if (
        not isinstance(key, str)
        or type(messages) is not int
        or not isinstance(lengths, list)
        or any(type(n) is not int or n <= 0 for n in lengths)
    ):
        return None
    crc = zlib.crc32(line)
    pieces: list[Piece] = []
    stored = open_file(source.fileno()) if in_file else None
    for number, length in enumerate(lengths, 1):
        if stored is not None and length >= IN_FILE and number < len(lengths):
            text = StoredText(stored, source.tell(), length)
            try:
                for data in text.slices():
                    crc = zlib.crc32(data, crc)
            except OSError:
                return None
            source.seek(length, 1)
            pieces.append(text)
            continue
        piece = source.read(length)
        if len(piece) != length:
            return None
        crc = zlib.crc32(piece, crc)
        pieces.append(piece)
    if source.read(5) != crc.to_bytes(4, "big"):
        return None
    return Checkpoint(key, messages, pieces, HandoffMemory(tool_ids, dropped))


__all__ = ["FORMAT", "Checkpoint", "checkpoint_key", "pieces_of", "read", "write"]
