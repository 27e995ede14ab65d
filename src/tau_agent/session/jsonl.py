"""A session in a JSONL file (Pi's v3 format): append-only, crash-safe, one writer at a time.

What a caller may rely on:

- **One write per entry.** An entry is encoded to one line and written with a single
  ``write`` on a file opened with ``O_APPEND``; an append never reads or rewrites the file,
  so its cost does not grow with the session.
- **Lazy creation.** ``create`` writes nothing until the first assistant message is
  appended (as Pi does), then writes the header and every buffered entry in one write. A
  session abandoned before any reply leaves no file behind.
- **Crash safety.** A process killed mid-write can leave at most a torn last line; ``open``
  ignores it with a warning and the next append cuts it off first, so the file stays valid
  for every reader. The cut bytes are first copied to ``side_file`` (``<name>.repaired-<time>``);
  if that copy fails, nothing is cut and the next entry starts on a fresh line. A corrupt
  line elsewhere is reported and skipped, never fatal (it stays in the file).
- **One writer.** A writable storage holds an exclusive ``flock`` on the file for its
  lifetime; a second writer gets ``SessionLockedError`` at once (read-only opens take no
  lock). Pi takes no such lock, so a Pi process can still write alongside.
- **Durability** (``fsync``): ``"always"`` fsyncs after every entry (survives power loss,
  costs a disk flush each); ``"on_create"`` (default) fsyncs the file and its directory
  when the file is created and when it is closed, and otherwise relies on the OS, which
  keeps every completed write across a crash of the process; ``"never"`` never fsyncs.
- **Old formats.** A v1/v2 file is migrated in memory on open; the first append rewrites it
  as v3 atomically (temp file in the same directory, fsync, rename) with the lock kept, after
  copying the original whole to ``side_file`` (lines it could not read are dropped from the
  rewrite, never lost).
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from tau_agent.messages import AssistantMessage
from tau_agent.session.codec import entry_to_dict, header_to_dict
from tau_agent.session.entries import MessageEntry, SessionEntry, SessionHeader
from tau_agent.session.fastjson import dumps_line
from tau_agent.session.fileio import (
    PartialWrite,
    Release,
    copy_from,
    copy_range,
    fsync_dir,
    mapped,
    read_all,
    write_all,
)
from tau_agent.session.line_copy import LinesMoved, SourceBytes, StoredLines, copied_pieces
from tau_agent.session.reader import LoadedSession, SessionFileError, read_session
from tau_agent.session.storage import SessionReadOnlyError
from tau_agent.session.tree import SessionTree

FsyncPolicy = Literal["always", "on_create", "never"]


_PIECE = 1 << 20


class SessionLockedError(RuntimeError):
    """Another process holds the session file ``path`` open for writing."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


def encode_line(value: dict[str, Any]) -> bytes:
    """One compact JSON line (UTF-8, ``\\n``-terminated), as Pi's ``JSON.stringify`` writes it."""
    return dumps_line(value)


def encode_entry(entry: SessionEntry) -> bytes:
    """An entry's line."""
    return dumps_line(entry_to_dict(entry))


class JsonlSessionStorage:
    """Use ``create`` for a new session and ``open`` for an existing file."""

    def __init__(
        self,
        path: Path,
        header: SessionHeader,
        entries: list[SessionEntry],
        *,
        fd: int | None,
        read_only: bool,
        fsync: FsyncPolicy,
        warnings: list[str] | None = None,
    ) -> None:
        self._path = path
        self._header = header
        self._entries = entries
        self._fd = fd
        self._read_only = read_only
        self._fsync = fsync
        self._unsynced = False  # this process wrote lines the disk may not hold yet
        self._warnings = warnings or []
        self._buffered = fd is None and not read_only  # entries wait for the first assistant message
        self._truncate_at: int | None = None
        self._read_size = 0
        self._needs_newline = False
        self._needs_rewrite = False
        self._migrated_from: int | None = None
        self._side_file: Path | None = None
        self._lines: StoredLines | None = None  # where the loaded entries' lines are in the file
        self._tree: SessionTree | None = None  # the loaded entries' tree, until taken

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def create(
        cls, path: str | os.PathLike[str], header: SessionHeader, *, fsync: FsyncPolicy = "on_create"
    ) -> JsonlSessionStorage:
        """A new session at ``path``; nothing is written until the first assistant message."""
        target = Path(path)
        if target.exists():
            raise FileExistsError(f"{target}: a session file already exists there")
        return cls(target, header, [], fd=None, read_only=False, fsync=fsync)

    @classmethod
    def create_from(
        cls,
        path: str | os.PathLike[str],
        header: SessionHeader,
        entries: Sequence[SessionEntry],
        *,
        fsync: FsyncPolicy = "on_create",
        source: JsonlSessionStorage | None = None,
    ) -> JsonlSessionStorage:
        """A new session file at ``path`` holding ``entries``, kept open (locked) for appends,
        as ``open`` of that file would give it: a fork or copy, with nothing read back. With
        ``source`` (the storage ``entries`` come from, in its file order), the lines of the
        entries it read from its file are copied from there byte for byte (line_copy.py).

        Atomic: written to a temporary file in the same folder, fsynced, then linked to
        ``path`` (FileExistsError if a file appeared there); a crash leaves no partial session.
        """
        storage = cls.create(path, header, fsync=fsync)
        storage._entries = list(entries)
        target = storage._path
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        # Not opened for appending until written: the kernel copies lines only into such a file.
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if source is None or not source._copy_lines(fd, header, storage._entries):
                storage._write_content(fd)
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
            os.fsync(fd)
            os.link(temp, target)
        except BaseException:
            os.close(fd)
            raise
        finally:
            temp.unlink(missing_ok=True)
        fsync_dir(target.parent)
        storage._fd = fd
        storage._buffered = False
        head = len(encode_line(header_to_dict(header)))
        storage._lines = StoredLines(head, os.fstat(fd).st_size, len(storage._entries))
        return storage

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, read_only: bool = False, fsync: FsyncPolicy = "on_create"
    ) -> JsonlSessionStorage:
        """Load an existing file. Writable opens lock it; raises SessionLockedError if taken.

        Raises FileNotFoundError, SessionFileError (not a session file) or SessionLockedError.
        """
        target = Path(path)
        fd: int | None = None
        if not read_only:
            fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise SessionLockedError(
                    f"{target}: the session is open in another Tau process; "
                    "open it read-only or fork it instead",
                    target,
                ) from None
        try:
            loaded, size = _load(target, fd)
        except BaseException:
            if fd is not None:
                os.close(fd)
            raise
        header = loaded.header
        if header is None:  # an empty file: the creating process died before its first write
            header = SessionHeader.new("")
            header.id = _id_from_name(target.name) or header.id
        storage = cls(
            target, header, loaded.entries, fd=fd, read_only=read_only, fsync=fsync, warnings=loaded.warnings
        )
        storage._buffered = False
        if loaded.header is None and fd is not None:
            storage._needs_rewrite = True
        if loaded.tail == "torn":
            storage._truncate_at = loaded.good_size
            storage._read_size = size
        elif loaded.tail == "missing_newline":
            storage._needs_newline = True
        storage._needs_rewrite = storage._needs_rewrite or loaded.migrated_from is not None
        storage._lines, storage._tree = loaded.lines, loaded.tree
        storage._migrated_from = loaded.migrated_from
        if fd is not None and (loaded.tail == "torn" or loaded.migrated_from is not None):
            stamp = time.strftime("%Y%m%dT%H%M%S")
            storage._side_file = target.with_name(f"{target.name}.repaired-{stamp}")
        return storage

    # -- SessionStorage ---------------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._path

    @property
    def header(self) -> SessionHeader:
        return self._header

    @property
    def entries(self) -> Sequence[SessionEntry]:
        return self._entries

    @property
    def warnings(self) -> Sequence[str]:
        return self._warnings

    def take_tree(self) -> SessionTree | None:
        tree, self._tree = self._tree, None
        return tree if tree is not None and len(tree) == len(self._entries) else None

    @property
    def side_file(self) -> Path | None:
        """Where bytes the next write removes (a torn tail; a whole v1/v2 original) are kept."""
        return self._side_file

    @property
    def read_only(self) -> bool:
        return self._read_only

    @property
    def on_disk(self) -> bool:
        """Whether the file exists yet (False while a new session waits for its first reply)."""
        return self._fd is not None or (self._read_only and self._path.exists())

    def write_now(self) -> None:
        """Write the file now if it waits for its first reply (the header and what is held; a
        Claude Code hook's ``transcript_path`` must exist). Later entries append as usual;
        OSError if the file cannot be made (nothing changes then)."""
        if self._buffered and self._fd is None:
            self._create_file()

    def append(self, entry: SessionEntry) -> None:
        """Record ``entry``: all or nothing. If the write fails (a full disk, say) the entry is
        not recorded, the exception propagates, and the file is left as valid as before."""
        if self._read_only:
            raise SessionReadOnlyError(f"{self._path}: the session was opened read-only")
        self._entries.append(entry)
        try:
            if self._buffered:
                if isinstance(entry, MessageEntry) and isinstance(entry.message, AssistantMessage):
                    self._create_file()
            elif self._needs_rewrite:
                self._rewrite()
            else:
                self._write_line(encode_entry(entry))
        except BaseException:
            self._entries.pop()
            raise

    def _write_line(self, line: bytes) -> None:
        fd = self._fd
        assert fd is not None, "append after close"
        if self._truncate_at is not None:
            if os.fstat(fd).st_size == self._read_size and self._keep(fd, self._truncate_at):
                os.ftruncate(fd, self._truncate_at)
            else:  # someone (Pi takes no lock) wrote since: keep their bytes, start a fresh line
                self._needs_newline = True
            self._truncate_at = None
        if self._needs_newline:
            line = b"\n" + line
        self._unsynced = True
        try:
            write_all(fd, line)
        except PartialWrite as partial:  # cut the fragment off, or at least end it
            try:
                os.ftruncate(fd, os.fstat(fd).st_size - partial.written)
            except OSError:
                self._needs_newline = True
            raise partial.error from None
        self._needs_newline = False
        if self._fsync == "always":
            os.fsync(fd)

    def _keep(self, fd: int, start: int) -> bool:
        """Copy bytes from ``start`` to the end of the file to ``side_file``; False if that failed."""
        side = self._side_file
        if side is None:
            return False
        try:
            copy_range(fd, start, os.fstat(fd).st_size, side)
        except OSError:
            return False
        return True

    def close(self) -> None:
        """Release the lock; fsync first what this storage appended, unless the policy is
        ``never`` (a file only read, or written whole and fsynced, is not synced again: for a
        session opened to be forked, that could mean waiting for another program's writes to
        reach the disk). Idempotent."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            if self._fsync != "never" and self._unsynced:
                os.fsync(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> JsonlSessionStorage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing the whole file -------------------------------------------------------------

    def _content(self) -> Iterator[bytes]:
        """The file's bytes in pieces of about a megabyte: a big session is never held twice."""
        lines = [encode_line(header_to_dict(self._header))]
        size = len(lines[0])
        for entry in self._entries:
            line = encode_entry(entry)
            lines.append(line)
            size += len(line)
            if size >= _PIECE:
                yield b"".join(lines)
                lines, size = [], 0
        yield b"".join(lines)

    def _write_content(self, fd: int) -> None:
        for piece in self._content():
            write_all(fd, piece)

    def _copy_lines(self, fd: int, header: SessionHeader, entries: Sequence[SessionEntry]) -> bool:
        """Write ``header`` and ``entries`` (in this file's order) to the empty file ``fd``,
        the lines of the entries this storage read from its file copied from it; False, with
        ``fd`` emptied again, if that cannot be done (nothing was read, or a line is not as
        it was read)."""
        stored = self._lines
        if stored is None or self._needs_rewrite:
            return False
        try:
            source = os.open(self._path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            # Lines held under this storage's lock can only have been appended to since (and
            # only such a file is mapped: see _load).
            locked = self._fd is not None and _same_file(source, self._fd)
            with mapped(source) if locked else _unmapped(source) as (data, release):
                write_all(fd, encode_line(header_to_dict(header)))
                pieces = copied_pieces(
                    data, stored, self._entries, entries, encode_entry, release, locked=locked
                )
                for piece in pieces:
                    if isinstance(piece, SourceBytes):
                        copy_from(source, fd, piece.start, piece.end, data)
                    else:
                        write_all(fd, piece)
        except LinesMoved:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            return False
        finally:
            os.close(source)
        return True

    def _create_file(self) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._write_content(fd)
            if self._fsync != "never":
                os.fsync(fd)
                fsync_dir(self._path.parent)
        except BaseException:  # leave no half-written file; the next append tries again
            os.close(fd)
            self._path.unlink(missing_ok=True)
            raise
        self._fd = fd
        self._buffered = False

    def _rewrite(self) -> None:
        """Replace the file by a v3 rendering of everything held, keeping the lock throughout."""
        if self._migrated_from is not None and self._fd is not None and not self._keep(self._fd, 0):
            raise OSError(f"{self._path}: could not keep a copy of the original before migrating it")
        temp = self._path.with_name(f".{self._path.name}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._write_content(fd)
            os.fsync(fd)
            os.replace(temp, self._path)
        except BaseException:
            os.close(fd)
            temp.unlink(missing_ok=True)
            raise
        fsync_dir(self._path.parent)
        old, self._fd = self._fd, fd
        if old is not None:
            os.close(old)
        self._needs_rewrite = False
        self._lines = None
        self._migrated_from = None
        self._truncate_at = None
        self._needs_newline = False


def _load(path: Path, fd: int | None) -> tuple[LoadedSession, int]:
    """The file read through a memory map when this process holds its lock (``fd``): the
    pages the reader is done with leave memory as it goes, so a big session is never held as
    bytes beside its entries. A read-only open reads the bytes (``path``): a map of a file
    that another process cuts short while it is read would kill this one (SIGBUS)."""
    if fd is None:
        data = path.read_bytes()
        return read_session(data, path.name), len(data)
    with mapped(fd) as (mapped_data, release):
        return read_session(mapped_data, path.name, release), len(mapped_data)


@contextmanager
def _unmapped(fd: int) -> Iterator[tuple[bytes, Release]]:
    yield read_all(fd), _keep_all


def _keep_all(offset: int) -> None:
    return None


def _same_file(a: int, b: int) -> bool:
    first, second = os.fstat(a), os.fstat(b)
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def _id_from_name(name: str) -> str | None:
    stem = name.removesuffix(".jsonl")
    _, sep, tail = stem.rpartition("_")
    return tail if sep and len(tail) == 36 else None


__all__ = [
    "FsyncPolicy",
    "JsonlSessionStorage",
    "SessionFileError",
    "SessionLockedError",
    "encode_entry",
    "encode_line",
]
