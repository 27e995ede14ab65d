"""Copying entries from one session file into another as the bytes they were read from.

A fork or copy of a long session holds mostly entries its source loaded from its file. Encoding
them again costs as much as reading them did (and allocates as much); their lines are already
in the source file, and Tau's readers give back the same entry for a line, wherever it sits. So
``copied_pieces`` makes the new file's lines from byte ranges of the source where it can and
encodes only the entries made since the source was read (new labels, new replies), a
megabyte or so at a time, in one pass over the source. From a file held locked since it was
read, a run of adjacent lines is handed out as its range (``SourceBytes``), for the writer to
copy inside the kernel without reading it; the run's end is found by walking back from the
end of the lines read when fewer lines follow the run than are in it (a fork near the end
of a long session looks at a few lines, not at every one).

What a caller may rely on: the pieces read back as the entries given, entry for entry, as
writing ``encode`` of each would (tests hold the two ways to equal results). A line is copied
only when the source's reader vouched for it (``StoredLines``: every line of a byte range was
read the fast way, one entry per line, in order) and the lines still hold their entries' ids
(for a file held locked since it was read, which can only have grown, the lines at the ends
of each run of adjacent lines copied); anything unexpected (a blank line, a file changed under the reader) raises
``LinesMoved``, and the caller starts over, encoding every entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import is_

from tau_agent.session.entries import SessionEntry
from tau_agent.session.fileio import Data, Release

_PIECE = 1 << 20


@dataclass(frozen=True, slots=True)
class StoredLines:
    """Bytes ``start:end`` of a session file are the lines of its first ``count`` loaded
    entries: one ``\\n``-terminated line each, in order, each read back as that entry."""

    start: int
    end: int
    count: int


@dataclass(frozen=True, slots=True)
class SourceBytes:
    """Bytes ``start:end`` of the source file, whole lines, to be written as they are."""

    start: int
    end: int


class LinesMoved(ValueError):
    """A line is not where ``StoredLines`` says (the file changed under its reader)."""


def copied_pieces(
    data: Data,
    stored: StoredLines,
    loaded: Sequence[SessionEntry],
    entries: Sequence[SessionEntry],
    encode: Callable[[SessionEntry], bytes],
    release: Release | None = None,
    *,
    locked: bool = True,
) -> Iterator[bytes | SourceBytes]:
    """The lines of ``entries``, in pieces of about a megabyte (or ranges of the source): copied
    from ``data`` (the source file) for entries that are ``loaded`` ones (the same objects, the
    first ``stored.count`` entries of the source, in file order), ``encode``d for the others.
    ``entries`` must be in the source's file order (a path, or a copy of the whole).
    ``release`` is told the offset of ``data`` before which nothing more is read. Raises
    LinesMoved, part way through, if a line is not where ``stored`` says it is: the first
    and last line of each run of adjacent lines copied must hold their entries' ids, and
    every line must unless the source is ``locked`` (held by its one writer since it was
    read, so that its lines can only have been appended to)."""
    count = min(stored.count, len(loaded))
    total = len(entries)
    line, pos = 0, stored.start  # the next line of the file: its number, where it starts
    pieces: list[bytes] = []
    size = 0
    k = 0
    while k < total:
        entry = entries[k]
        at = line
        while at < count and loaded[at] is not entry:
            at += 1
        if at == count:  # not read from the file, and neither is anything after it in file order
            line = count
            piece = encode(entry)
            pieces.append(piece)
            size += len(piece)
            k += 1
        else:
            if at > line:  # lines of entries left out (another branch, labels)
                pos = _after_lines(data, pos, at - line, stored.end)
                if release is not None:
                    release(pos)
            run = _same_run(entries, k, loaded, at, min(total - k, count - at))
            first = pos
            if locked:  # the run's lines as one range; its first and last lines checked
                _check(data, first, entries[k])
                pos = _run_end(data, stored, first, run, count - at - run)
                last = data.rfind(b"\n", first, pos - 1)  # the end of the line before the last
                _check(data, first if last < 0 else last + 1, entries[k + run - 1])
                if pieces:
                    yield b"".join(pieces)
                    pieces, size = [], 0
                yield SourceBytes(first, pos)
                if release is not None:
                    release(pos)
            else:  # every line checked before any is copied
                for entry in entries[k : k + run]:
                    pos = _check(data, pos, entry) + 1
                pieces.append(data[first:pos])
                size += pos - first
            line, k = at + run, k + run
        if size >= _PIECE:
            yield b"".join(pieces)
            pieces, size = [], 0
    if pieces:
        yield b"".join(pieces)


def _same_run(
    entries: Sequence[SessionEntry], k: int, loaded: Sequence[SessionEntry], at: int, most: int
) -> int:
    """How many of ``entries`` from ``k`` are ``loaded``'s from ``at`` (the same objects), up
    to ``most``; at least 1 (the first two are). Compared at C speed: a fork's run is most of
    a long session."""
    same = list(map(is_, islice(entries, k, k + most), islice(loaded, at, at + most)))
    try:
        return same.index(False)
    except ValueError:
        return most


def _run_end(data: Data, stored: StoredLines, pos: int, lines: int, behind: int) -> int:
    """Where the ``lines`` lines from ``pos`` end, ``behind`` lines before the end of the
    stored lines: found from whichever end is fewer lines away. LinesMoved if they are not
    all there."""
    if behind >= lines:
        return _after_lines(data, pos, lines, stored.end)
    end = stored.end
    if end <= pos or data[end - 1 : end] != b"\n":
        raise LinesMoved("the stored lines do not end where they did")
    for _ in range(behind):  # back over the lines after the run, one line end at a time
        end = data.rfind(b"\n", pos, end - 1) + 1
        if end <= pos:
            raise LinesMoved(f"{behind} lines are missing")
    return end


def _after_lines(data: Data, pos: int, lines: int, end: int) -> int:
    """Where the line ``lines`` lines after the one at ``pos`` starts; LinesMoved if ``end``
    comes first."""
    while lines:
        piece, found = _lines_from(data, pos, lines, end)
        pos += len(piece)
        lines -= found
    return pos


def _lines_from(data: Data, pos: int, lines: int, end: int) -> tuple[bytes, int]:
    """Up to a megabyte from ``pos``, ending where the ``lines``-th line from there ends if it
    does in that megabyte, and how many line ends it holds (newlines are counted in C, not
    looked for one by one); LinesMoved if ``end`` comes before any of it."""
    stop = min(pos + _PIECE, end)
    if stop <= pos:
        raise LinesMoved(f"{lines} lines are missing")
    piece = data[pos:stop]
    found = piece.count(b"\n")
    if found < lines:
        return piece, found
    at = -1
    for _ in range(lines):
        at = piece.find(b"\n", at + 1)
    return piece[: at + 1], lines


# The first "id" key of a line: the entry's own, which every writer puts before any nested
# object (a tool call's "id"). Not just the id in quotes: the next entry's line holds it too,
# as its "parentId", and a line found one too far (a blank line the count skipped) would pass.
_ID_KEY = re.compile(rb'"id"\s*:\s*"([^"\\]*)"')


def _check(data: Data, start: int, entry: SessionEntry) -> int:
    """Where the line at ``start``, which must be ``entry``'s (its first "id" key holds
    ``entry``'s id), ends."""
    stop = data.find(b"\n", start)
    found = _ID_KEY.search(data, start, stop) if stop >= 0 else None
    if found is None or found.group(1) != entry.id.encode():
        raise LinesMoved(f"entry {entry.id} is not on the line it was read from")
    return stop


__all__ = ["LinesMoved", "SourceBytes", "StoredLines", "copied_pieces"]
