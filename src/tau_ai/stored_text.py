"""StoredText: bytes of a file that are read when they are sent, not held in memory.

A resumed long session's request checkpoint holds its converted history (tens of MB for
100,000 messages). The first request sends it, the close writes it into the next checkpoint;
in between nothing reads it. So its big pieces stay in the file: a ``StoredText`` is a range
of a file opened once (its descriptor kept, duplicated from the reader's, and closed when the
last range of it is dropped), read a slice at a time with ``os.pread``.

What a caller may rely on: the file is one that is only ever replaced by a rename or added
to at its end, never written in place (request checkpoints are: temporary file, then rename;
a ``SpillFile`` only grows), so the range reads the same bytes for as long as it lives, even
after the file was replaced or deleted. A range that reads short (someone cut the file)
raises OSError rather than sending other bytes.

``SpillFile`` is where a long conversation's history goes when it was converted in this
process rather than read from a checkpoint: an unnamed file that runs of converted items are
appended to, so that they too are read when sent rather than held in memory.
"""

from __future__ import annotations

import os
import tempfile
import weakref
from collections.abc import Iterator
from pathlib import Path

SLICE = 1 << 20


class OpenFile:
    """An open file descriptor, closed when this object goes."""

    __slots__ = ("__weakref__", "fd")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        weakref.finalize(self, os.close, fd)


class StoredText:
    """``length`` bytes at ``offset`` of an open file (see the module docstring)."""

    __slots__ = ("_file", "length", "offset")

    def __init__(self, file: OpenFile, offset: int, length: int) -> None:
        self._file = file
        self.offset = offset
        self.length = length

    def __len__(self) -> int:
        return self.length

    def slices(self, size: int = SLICE) -> Iterator[bytes]:
        """The bytes in order, ``size`` at a time."""
        fd, at, end = self._file.fd, self.offset, self.offset + self.length
        while at < end:
            piece = os.pread(fd, min(size, end - at), at)
            if not piece:
                raise OSError(f"stored text cut short: {end - at} of {self.length} bytes missing")
            at += len(piece)
            yield piece

    def __bytes__(self) -> bytes:
        return b"".join(self.slices())


def open_file(fd: int) -> OpenFile:
    """A descriptor of its own for the file open as ``fd`` (a duplicate: the caller may close
    ``fd``), to make ``StoredText`` ranges of."""
    return OpenFile(os.dup(fd))


class SpillFile:
    """An unnamed file in ``directory`` that keeps bytes as ``StoredText`` ranges. It is made
    at the first ``keep`` and goes when the last range of it is dropped (a conversation that
    started over no longer needs its runs); a later ``keep`` then makes a new one."""

    __slots__ = ("_directory", "_file", "_size")

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._file: weakref.ref[OpenFile] | None = None
        self._size = 0

    def keep(self, data: bytes | memoryview) -> bytes | StoredText:
        """``data`` as a range of the file, or as bytes in memory when the file cannot take
        it (no such folder, no space): spilling saves memory, it never fails a request."""
        file = self._file() if self._file is not None else None
        try:
            if file is None:
                fd, name = tempfile.mkstemp(prefix=".tau-spill-", dir=self._directory)
                file, self._file, self._size = OpenFile(fd), None, 0
                os.unlink(name)
            at, view = self._size, memoryview(data)
            while view:
                written = os.pwrite(file.fd, view, at)
                at, view = at + written, view[written:]
        except OSError:
            return bytes(data)
        kept = StoredText(file, self._size, len(data))
        self._file, self._size = weakref.ref(file), at
        return kept


__all__ = ["SLICE", "OpenFile", "SpillFile", "StoredText", "open_file"]
