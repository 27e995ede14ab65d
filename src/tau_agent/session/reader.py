"""Parse the bytes of a session file: header, entries, and what was wrong with them. Pure.

Never fatal past the header: a line that is not JSON, or not an entry, is reported in
``warnings`` (with its line number) and skipped. Every line Tau or Pi writes ends in
``\\n``, so bytes after the last newline are a write that was cut short (a crash, a full
disk): they are dropped with a warning unless they happen to be a whole entry, and
``tail`` tells the writer how to repair the file before its next append. Files from Pi's
v1 and v2 formats are migrated to v3 in memory (``migrated_from`` says from which).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Any, Literal

from tau_agent.session.codec import CodecError, entry_from_dict, header_from_dict, migrate
from tau_agent.session.entries import CURRENT_VERSION, SessionEntry, SessionHeader
from tau_agent.session.fastjson import loads

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
    left alone rather than guessed at. The cyclic garbage collector is paused meanwhile:
    parsing allocates millions of objects and no cycles, and the collector's passes over
    them would otherwise cost more than the parsing itself.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read_session(data, name)
    finally:
        if enabled:
            gc.enable()


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
    dicts: list[tuple[int, dict[str, Any]]] = []
    warnings = loaded.warnings
    for number in range(first + 1, len(lines)):
        raw = lines[number]
        value = _loads(raw)
        if isinstance(value, dict):
            dicts.append((number + 1, value))
        elif value is not _BAD or raw.strip():
            warnings.append(f"{name}: line {number + 1} is not a JSON object; skipped")
    if loaded.header.version < CURRENT_VERSION:
        assert isinstance(header_json, dict)
        loaded.migrated_from = migrate(header_json, [d for _, d in dicts])
        loaded.header.version = CURRENT_VERSION
        warnings.append(f"{name}: migrated from format v{loaded.migrated_from} to v{CURRENT_VERSION}")
    entries = loaded.entries
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
        entries.append(entry)
    return loaded


_BAD = object()


def _loads(raw: bytes) -> Any:
    try:
        return loads(raw)
    except (ValueError, RecursionError):
        return _BAD


__all__ = ["LoadedSession", "SessionFileError", "TailState", "read_session"]
