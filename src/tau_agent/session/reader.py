"""Parse the bytes of a session file: header, entries, and what was wrong with them. Pure.

Never fatal past the header: a line that is not JSON, or not an entry, is reported in
``warnings`` (with its line number) and skipped. Every line Tau or Pi writes ends in
``\\n``, so bytes after the last newline are a write that was cut short (a crash, a full
disk): they are dropped with a warning unless they happen to be a whole entry, and
``tail`` tells the writer how to repair the file before its next append. Files from Pi's
v1 and v2 formats are migrated to v3 in memory (``migrated_from`` says from which).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from tau_agent.session.bulk import gc_paused
from tau_agent.session.codec import (
    CodecError,
    decode_deferred_message,
    entry_from_dict,
    header_from_dict,
)
from tau_agent.session.entries import CURRENT_VERSION, MessageEntry, SessionEntry, SessionHeader
from tau_agent.session.fastjson import loads
from tau_agent.session.migrate import migrate

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


def read_session(data: bytes, name: str = "session") -> LoadedSession:
    """Parse a whole file. ``LoadedSession.header`` is None only for an empty file.

    Raises SessionFileError when the first line is not a session header: such a file is
    left alone rather than guessed at.
    """
    with gc_paused():
        return _read_session(data, name)


def _read_session(data: bytes, name: str) -> LoadedSession:
    good_size = data.rfind(b"\n") + 1
    loaded = LoadedSession(header=None, good_size=good_size)
    lines = data[:good_size].split(b"\n")
    lines.pop()  # the empty piece after the final newline
    tail = data[good_size:]
    if tail.strip():
        tail_json = _loads(tail)
        if isinstance(tail_json, dict) and "type" in tail_json:
            lines.append(tail)
            loaded.tail = "missing_newline"
        else:
            loaded.tail = "torn"
            loaded.warnings.append(
                f"{name}: line {len(lines) + 1} is incomplete ({len(tail)} bytes, an interrupted write); "
                "ignored, and cut off before the next write"
            )
    elif tail:
        loaded.tail = "missing_newline"
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first == len(lines):
        return loaded
    header_json = _loads(lines[first])
    try:
        loaded.header = header_from_dict(header_json)
    except CodecError as exc:
        raise SessionFileError(f"{name}: not a session file ({exc})") from None
    if loaded.header.version >= CURRENT_VERSION:
        _read_entries(lines, first + 1, loaded, name)
    else:
        assert isinstance(header_json, dict)
        _read_old_entries(lines, first + 1, header_json, loaded, name)
    return loaded


def _read_old_entries(
    lines: list[bytes], start: int, header_json: dict[str, Any], loaded: LoadedSession, name: str
) -> None:
    """v1/v2 entries: all parsed first, since migration works on the whole file."""
    warnings = loaded.warnings
    dicts: list[tuple[int, dict[str, Any]]] = []
    for number in range(start, len(lines)):
        raw = lines[number]
        value = _loads(raw)
        if value is _BAD:
            value = _salvage(raw, f"{name}: line {number + 1}", warnings)
        if isinstance(value, dict):
            dicts.append((number + 1, value))
        elif value is not _BAD or raw.strip():
            warnings.append(f"{name}: line {number + 1} is not a JSON object; skipped")
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
# The start of a message line as Tau and Pi write it; such a line's message is decoded lazily.
_MESSAGE_PREFIX = re.compile(
    rb'\{"type":"message","id":"([^"\\]+)","parentId":(?:null|"([^"\\]+)"),"timestamp":"([^"\\]*)","message":\{'
)


def _read_entries(lines: list[bytes], start: int, loaded: LoadedSession, name: str) -> None:
    """v3 entries: message lines in the usual shape become deferred entries (only their ids
    are read now); everything else is parsed and decoded at once."""
    entries = loaded.entries
    warnings = loaded.warnings
    seen: set[str] = set()
    match = _MESSAGE_PREFIX.match
    deferred = MessageEntry.deferred
    for number in range(start, len(lines)):
        raw = lines[number]
        found = match(raw)
        entry: SessionEntry
        if found is not None and raw.endswith(b"}}"):
            eid, parent, timestamp = found.group(1, 2, 3)
            entry = deferred(
                eid.decode(),
                None if parent is None else parent.decode(),
                timestamp.decode(),
                raw,
                decode_deferred_message,
            )
        else:
            value = _loads(raw)
            if value is _BAD:
                value = _salvage(raw, f"{name}: line {number + 1}", warnings)
            if not isinstance(value, dict):
                if value is not _BAD or raw.strip():
                    warnings.append(f"{name}: line {number + 1} is not a JSON object; skipped")
                continue
            try:
                entry = entry_from_dict(value)
            except CodecError as exc:
                warnings.append(f"{name}: line {number + 1}: {exc}; skipped")
                continue
        if entry.id in seen:
            warnings.append(f"{name}: line {number + 1}: duplicate entry id {entry.id}; skipped")
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
