"""A git index file (version 2) written from the files' stat data and blob ids.

Git's own ``git add`` would write the same entries; writing them here lets the first snapshot
skip git's hashing (see packfile.py). Each entry keeps the file's stat data as git records it
(times, device, inode, mode, owner, size, truncated to 32 bits), so the next ``git add -A``
re-reads only files that changed since. The format is git's documented index format
(Documentation/gitformat-index.txt): a header, entries sorted by path, a SHA-1 trailer.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from tau_agent.atomic_write import atomic_write_bytes

_ENTRY = struct.Struct(">10I20sH")
_MASK = 0xFFFFFFFF
_NAME_MASK = 0x0FFF


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One path (bytes, relative, ``/``-separated), its stat data and its blob id."""

    path: bytes
    info: os.stat_result
    object_id: bytes


def git_mode(info: os.stat_result) -> int:
    """The mode git records: a link, or a regular file executable by its owner or not."""
    if stat.S_ISLNK(info.st_mode):
        return 0o120000
    return 0o100755 if info.st_mode & stat.S_IXUSR else 0o100644


def _entry(item: IndexEntry) -> bytes:
    info = item.info
    packed = _ENTRY.pack(
        info.st_ctime_ns // 1_000_000_000 & _MASK,
        info.st_ctime_ns % 1_000_000_000,
        info.st_mtime_ns // 1_000_000_000 & _MASK,
        info.st_mtime_ns % 1_000_000_000,
        info.st_dev & _MASK,
        info.st_ino & _MASK,
        git_mode(info),
        info.st_uid & _MASK,
        info.st_gid & _MASK,
        info.st_size & _MASK,
        item.object_id,
        min(len(item.path), _NAME_MASK),
    )
    padding = 8 - (len(packed) + len(item.path)) % 8  # 1 to 8 NULs
    return packed + item.path + b"\0" * padding


def write_index(path: Path, entries: list[IndexEntry]) -> None:
    """Replace the index at ``path`` with ``entries`` (sorted here, as git requires), atomically."""
    ordered = sorted(entries, key=lambda e: e.path)
    body = b"".join([b"DIRC", struct.pack(">II", 2, len(ordered)), *map(_entry, ordered)])
    atomic_write_bytes(path, body + hashlib.sha1(body).digest())


__all__ = ["IndexEntry", "git_mode", "write_index"]
