"""StoredText: bytes of a file that are read when they are sent, not held in memory.

A resumed long session's request checkpoint holds its converted history (tens of MB for
100,000 messages). The first request sends it, the close writes it into the next checkpoint;
in between nothing reads it. So its big pieces stay in the file: a ``StoredText`` is a range
of a file opened once (its descriptor kept, duplicated from the reader's, and closed when the
last range of it is dropped), read a slice at a time with ``os.pread``.

What a caller may rely on: the file is one that is only ever replaced by a rename, never
written in place (request checkpoints are: temporary file, then rename), so the range reads
the same bytes for as long as it lives, even after the file was replaced or deleted. A range
that reads short (someone cut the file) raises OSError rather than sending other bytes.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator

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


__all__ = ["SLICE", "OpenFile", "StoredText", "open_file"]
