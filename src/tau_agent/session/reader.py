"""Parse the bytes of a session file: header, entries, and what was wrong with them. Pure.

Never fatal past the header: a line that is not JSON, or not an entry, is reported in
``warnings`` (with its line number) and skipped. Every line Tau or Pi writes ends in
``\\n``, so bytes after the last newline are a write that was cut short (a crash, a full
disk): they are dropped with a warning unless they happen to be a whole entry, and
``tail`` tells the writer how to repair the file before its next append. Files from Pi's
v1 and v2 formats are migrated to v3 in memory (``migrated_from`` says from which).

v3 lines are decoded in batches by msgspec (fast_decode.py), straight into Tau's types;
whatever that fast path refuses is read the careful way, line by line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Literal

from tau_agent.session.bulk import gc_paused
from tau_agent.session.codec import CodecError, entry_from_dict, header_from_dict
from tau_agent.session.entries import CURRENT_VERSION, SessionEntry, SessionHeader
from tau_agent.session.fastjson import loads
from tau_agent.session.fileio import Data, Release
from tau_agent.session.line_copy import StoredLines
from tau_agent.session.migrate import migrate
from tau_agent.session.tree import SessionTree

TailState = Literal["clean", "missing_newline", "torn"]


class SessionFileError(ValueError):
    """The file is not a session file (its first line is not a session header)."""


@dataclass(slots=True)
class LoadedSession:
    header: SessionHeader | None
    entries: list[SessionEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tail: TailState = "clean"
    good_size: int = 0
    """Bytes up to and including the last newline: where a torn tail gets cut off."""
    migrated_from: int | None = None
    lines: StoredLines | None = None
    """Set when the entries came one per line, in order, all read the fast way, from a
    whole-lines byte range of the file (line_copy.py may then copy those lines)."""
    tree: SessionTree | None = None
    """The entries' tree, when the fast way read them all: made as they were read."""


def read_session(data: Data, name: str = "session", release: Release | None = None) -> LoadedSession:
    """Parse a whole file. ``LoadedSession.header`` is None only for an empty file.

    Raises SessionFileError when the first line is not a session header: such a file is
    left alone rather than guessed at. ``release`` is told, as the entries are read in file
    order, the offset before which the bytes are no longer needed (fileio.mapped).
    """
    with gc_paused():
        return _read_session(data, name, release)


def _read_session(data: Data, name: str, release: Release | None) -> LoadedSession:
    good_size = data.rfind(b"\n") + 1
    loaded = LoadedSession(header=None, good_size=good_size)
    tail = data[good_size:]
    tail_line: bytes | None = None
    if tail.strip():
        tail_json = _loads(tail)
        if isinstance(tail_json, dict) and "type" in tail_json:
            tail_line = tail
            loaded.tail = "missing_newline"
        else:
            loaded.tail = "torn"
            number = _count_lines(data, 0, good_size) + 1
            loaded.warnings.append(
                f"{name}: line {number} is incomplete ({len(tail)} bytes, an interrupted write); "
                "ignored, and cut off before the next write"
            )
    elif tail:
        loaded.tail = "missing_newline"
    if tail_line is not None:
        data = data[:good_size] + tail_line + b"\n"
        good_size = len(data)
    header_start, header_end, header_number = _first_line(data, good_size)
    if header_start < 0:
        return loaded
    header_json = _loads(data[header_start:header_end])
    try:
        loaded.header = header_from_dict(header_json)
    except CodecError as exc:
        raise SessionFileError(f"{name}: not a session file ({exc})") from None
    if loaded.header.version >= CURRENT_VERSION:
        _read_entries(data, header_end + 1, good_size, header_number + 1, loaded, name, release)
        if tail_line is not None:
            loaded.lines = None  # its last line is not in the file as read here (no newline)
    else:
        assert isinstance(header_json, dict)
        lines = data[header_end + 1 : good_size].split(b"\n")
        lines.pop()
        _read_old_entries(lines, header_number + 1, header_json, loaded, name)
    return loaded


def _first_line(data: Data, end: int) -> tuple[int, int, int]:
    """Start, end (its newline) and 1-based number of the first non-blank line; start -1 if none."""
    start, number = 0, 1
    while start < end:
        stop = data.find(b"\n", start)
        if data[start:stop].strip():
            return start, stop, number
        start, number = stop + 1, number + 1
    return -1, -1, 0


def _read_old_entries(
    lines: list[bytes], first_number: int, header_json: dict[str, Any], loaded: LoadedSession, name: str
) -> None:
    """v1/v2 entries: all parsed first, since migration works on the whole file."""
    warnings = loaded.warnings
    dicts: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(lines, first_number):
        value = _loads(raw)
        if value is _BAD:
            value = _salvage(raw, f"{name}: line {number}", warnings)
        if isinstance(value, dict):
            dicts.append((number, value))
        elif value is not _BAD or raw.strip():
            warnings.append(f"{name}: line {number} is not a JSON object; skipped")
    loaded.migrated_from = migrate(header_json, [d for _, d in dicts])
    assert loaded.header is not None
    loaded.header.version = CURRENT_VERSION
    warnings.append(f"{name}: migrated from format v{loaded.migrated_from} to v{CURRENT_VERSION}")
    seen: set[str] = set()
    for number, value in dicts:
        try:
            entry = entry_from_dict(value)
        except CodecError as exc:
            warnings.append(f"{name}: line {number}: {exc}; skipped")
            continue
        if entry.id in seen:
            warnings.append(f"{name}: line {number}: duplicate entry id {entry.id}; skipped")
            continue
        seen.add(entry.id)
        loaded.entries.append(entry)


_BAD = object()
_CHUNK = 1 << 20
"""Bytes of lines decoded in one batch: big enough that per-call overhead vanishes, small
enough that a line the fast path refuses sends only its own batch down the careful path."""


def _count_lines(data: Data, start: int, end: int) -> int:
    """Newlines in ``data[start:end]`` (a map has no ``count``: a megabyte at a time)."""
    if isinstance(data, bytes):
        return data.count(b"\n", start, end)
    return sum(data[at : min(at + _CHUNK, end)].count(b"\n") for at in range(start, end, _CHUNK))


_ID = attrgetter("id")


def _read_entries(
    data: Data,
    start: int,
    end: int,
    first_number: int,
    loaded: LoadedSession,
    name: str,
    release: Release | None,
) -> None:
    """v3 entries from ``data[start:end]`` (whole lines), batch by batch on the fast path
    (fast_decode.py); a batch it refuses is read line by line, and a line it refuses the
    careful way (codec.py), which is where every warning comes from."""
    from tau_agent.session import fast_decode  # its decoder is built only when a session is read

    entries = loaded.entries
    warnings_before = len(loaded.warnings)
    fast = True
    index: fast_decode.Indexing | None = fast_decode.Indexing() if not entries else None
    pos = start
    with memoryview(data) as view:
        while pos < end:
            cut = data.find(b"\n", min(pos + _CHUNK, end) - 1) + 1
            try:
                with view[pos:cut] as lines:
                    fast_decode.decode_lines(lines, entries, index)
            except fast_decode.DecodeError:
                fast, index = False, None
                number = first_number + _count_lines(data, start, pos)
                _read_lines(data[pos:cut].split(b"\n")[:-1], number, loaded, name)
            if release is not None:
                release(cut)
            pos = cut
    if (len(index.by_id) if index is not None else len(set(map(_ID, entries)))) != len(entries):
        entries.clear()  # rare: read again line by line to say which lines repeat an id
        del loaded.warnings[warnings_before:]
        _read_lines(data[start:end].split(b"\n")[:-1], first_number, loaded, name, seen=set())
    elif fast:
        loaded.lines = StoredLines(start, end, len(entries))
        if index is not None:
            loaded.tree = SessionTree.indexed(index.by_id, index.one_chain())


def _read_lines(
    lines: list[bytes], first_number: int, loaded: LoadedSession, name: str, seen: set[str] | None = None
) -> None:
    """Line by line; with ``seen``, an entry whose id came earlier is skipped with a warning."""
    from tau_agent.session import fast_decode

    entries = loaded.entries
    warnings = loaded.warnings
    for number, raw in enumerate(lines, first_number):
        entry: SessionEntry
        try:
            entry = fast_decode.decode_line(raw)
        except fast_decode.DecodeError:
            value = _loads(raw)
            if value is _BAD:
                value = _salvage(raw, f"{name}: line {number}", warnings)
            if not isinstance(value, dict):
                if value is not _BAD or raw.strip():
                    warnings.append(f"{name}: line {number} is not a JSON object; skipped")
                continue
            try:
                entry = entry_from_dict(value)
            except CodecError as exc:
                warnings.append(f"{name}: line {number}: {exc}; skipped")
                continue
        if seen is not None:
            if entry.id in seen:
                warnings.append(f"{name}: line {number}: duplicate entry id {entry.id}; skipped")
                continue
            seen.add(entry.id)
        entries.append(entry)


def _salvage(raw: bytes, where: str, warnings: list[str]) -> Any:
    """The entry at the end of a line that an interrupted write left unfinished and a later
    writer (Pi, which does not repair files) continued on: ``{"type":"mess{"type":...}``."""
    at = raw.find(b'{"type":"', 1)
    while at > 0:
        value = _loads(raw[at:])
        if isinstance(value, dict):
            warnings.append(f"{where}: {at} bytes of an interrupted write skipped, the entry after them kept")
            return value
        at = raw.find(b'{"type":"', at + 1)
    return _BAD


def _loads(raw: bytes) -> Any:
    try:
        return loads(raw)
    except (ValueError, RecursionError):
        return _BAD


__all__ = ["LoadedSession", "SessionFileError", "TailState", "read_session"]
