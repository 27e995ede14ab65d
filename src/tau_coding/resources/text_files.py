"""Reading one resource file as text, with every problem reported instead of raised.

All resource loaders read through ``read_resource_text`` so that the same rules hold everywhere:
line endings become ``\\n``, a UTF-8 byte-order mark is dropped, invalid UTF-8 is decoded with
replacement characters (and warned about), files with NUL bytes are treated as binary and
skipped, and files too large to belong in a prompt are skipped rather than read into memory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TypeAlias

from tau_coding.common.diagnostics import Diagnostic

LARGE_FILE_BYTES = 64 * 1024
"""Above this a file is still loaded, with a warning: it is sent with every request."""

MAX_FILE_BYTES = 4 * 1024 * 1024
"""Above this a file is not loaded at all."""


def read_resource_text(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """The text of ``path`` (``None`` when it could not be used) and the problems found.

    Never raises for I/O or encoding problems: a missing, unreadable, binary or oversized file
    gives ``None`` and an error diagnostic; invalid UTF-8 and large files give a warning.
    """
    source = str(path)
    try:
        # O_NONBLOCK: a FIFO named like a resource must not hang start-up; it is refused below.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError:
        return None, [_error(source, "is a directory, expected a file")]
    except OSError as exc:
        return None, [_error(source, f"cannot read: {exc.strerror or exc}")]
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            os.close(fd)
            return None, [_error(source, "is a directory, expected a file")]
        if not stat.S_ISREG(status.st_mode):
            os.close(fd)
            return None, [_error(source, "is not a regular file")]
        with os.fdopen(fd, "rb") as handle:
            if status.st_size > MAX_FILE_BYTES:
                return None, [
                    _error(source, f"file is {status.st_size} bytes, over the {MAX_FILE_BYTES} byte limit")
                ]
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, [_error(source, f"cannot read: {exc.strerror or exc}")]
    if len(data) > MAX_FILE_BYTES:  # grew while we looked, or a special file without a size
        return None, [_error(source, f"file is over the {MAX_FILE_BYTES} byte limit")]
    if b"\0" in data:
        return None, [_error(source, "looks like a binary file (contains NUL bytes)")]
    diagnostics: list[Diagnostic] = []
    if len(data) > LARGE_FILE_BYTES:
        diagnostics.append(
            Diagnostic("warning", source, f"large file ({len(data)} bytes) is sent with every request")
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        diagnostics.append(
            Diagnostic(
                "warning", source, f"invalid UTF-8 at byte {exc.start}; undecodable bytes shown as \ufffd"
            )
        )
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, diagnostics


FileIdentity: TypeAlias = tuple[int, int] | Path


def file_identity(path: Path) -> FileIdentity:
    """What ``path`` is on disk (device, inode), for spotting one file or directory reached twice.

    One ``stat`` call (``Path.resolve`` costs one per path component); a path that cannot be
    stat'ed is its own identity.
    """
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return path.absolute()
    return status.st_dev, status.st_ino


def _error(source: str, message: str) -> Diagnostic:
    return Diagnostic("error", source, message)
