"""Low-level file writes for session storage: whole writes, partial-write reporting, fsync.

``write_all`` loops over short writes and reports a failure that came after some bytes as
``PartialWrite`` (an OSError) carrying how many bytes reached the file, so the caller can
cut the fragment off again.
"""

from __future__ import annotations

import errno
import mmap
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeAlias

Data: TypeAlias = bytes | mmap.mmap
"""A whole file: its bytes, or a read-only map of it (``mapped``)."""

Release = Callable[[int], None]
"""``release(offset)``: the reader no longer needs the bytes before ``offset`` (it may still
read them again, at the price of reading them from the page cache)."""


def read_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    chunks: list[bytes] = []
    offset = 0
    while True:
        chunk = os.pread(fd, max(size - offset, 1 << 16), offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


@contextmanager
def mapped(fd: int) -> Iterator[tuple[Data, Release]]:
    """The file's bytes as a read-only memory map, and a ``Release`` that drops the pages before
    an offset from this process's memory: a reader going through a big file once then never
    holds more than the part it is at (the pages are the page cache's, nothing is copied).
    A file of no size (empty, or one that does not say, as under /proc) is read whole
    instead. The map is closed on exit; views of it must be gone by then."""
    size = os.fstat(fd).st_size
    if size == 0:  # empty, or a file that says no size (/proc): read to its end, as it is
        yield read_all(fd), _keep_all
        return
    try:
        data = mmap.mmap(fd, size, prot=mmap.PROT_READ)
    except OSError:  # a file system that cannot map files: read it whole
        yield read_all(fd), _keep_all
        return
    with suppress(OSError):  # advice only
        data.madvise(mmap.MADV_SEQUENTIAL)
    dropped = 0

    def release(offset: int) -> None:
        nonlocal dropped
        end = offset - offset % mmap.PAGESIZE
        if end > dropped:
            with suppress(OSError):  # advice only: the pages then stay until the map is closed
                data.madvise(mmap.MADV_DONTNEED, dropped, end - dropped)
            dropped = end

    try:
        yield data, release
    finally:
        with suppress(BufferError):  # a view still held (an exception's traceback): the GC closes it
            data.close()


def _keep_all(offset: int) -> None:
    return None


class PartialWrite(OSError):
    """A write that failed after ``written`` bytes had reached the file."""

    def __init__(self, written: int, error: OSError) -> None:
        super().__init__(error.errno, f"{error.strerror} (after {written} bytes)")
        self.written = written
        self.error = error


def write_all(fd: int, data: bytes) -> None:
    """Write everything; a failure after some bytes raises PartialWrite."""
    view = memoryview(data)
    written = 0
    while written < len(data):
        try:
            written += os.write(fd, view[written:])
        except OSError as exc:
            if not written:
                raise
            raise PartialWrite(written, exc) from exc


_NO_KERNEL_COPY = frozenset({errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EBADF})


def copy_from(source: int, fd: int, start: int, end: int, data: Data) -> None:
    """Write bytes ``start:end`` of the file ``source`` at ``fd``'s position (``fd`` must not
    be opened for appending): copied inside the kernel (``copy_file_range``) where the file
    systems allow it, so they never pass through this process; else, and for whatever the
    kernel did not copy, taken from ``data`` (the same file's bytes or map). A failure after
    some bytes raises PartialWrite."""
    offset = start
    try:
        while offset < end:
            copied = os.copy_file_range(source, fd, end - offset, offset)
            if not copied:
                break
            offset += copied
    except OSError as exc:
        if exc.errno not in _NO_KERNEL_COPY:
            if offset == start:
                raise
            raise PartialWrite(offset - start, exc) from exc
    while offset < end:
        piece = data[offset : min(end, offset + (1 << 20))]
        try:
            write_all(fd, piece)
        except PartialWrite as exc:
            raise PartialWrite(offset - start + exc.written, exc.error) from exc
        except OSError as exc:
            if offset == start:
                raise
            raise PartialWrite(offset - start, exc) from exc
        offset += len(piece)


def copy_range(fd: int, start: int, end: int, target: Path) -> None:
    """Copy bytes ``start:end`` of ``fd`` into a new file ``target`` (temp file, fsync, rename),
    in bounded chunks; refuses to replace an existing file."""
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    out = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        offset = start
        while offset < end:
            chunk = os.pread(fd, min(end - offset, 1 << 20), offset)
            if not chunk:
                break
            write_all(out, chunk)
            offset += len(chunk)
        os.fsync(out)
    except BaseException:
        os.close(out)
        temp.unlink(missing_ok=True)
        raise
    os.close(out)
    if target.exists():
        temp.unlink(missing_ok=True)
        raise FileExistsError(f"{target} already exists")
    os.replace(temp, target)


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = [
    "Data",
    "PartialWrite",
    "Release",
    "copy_from",
    "copy_range",
    "fsync_dir",
    "mapped",
    "read_all",
    "write_all",
]
