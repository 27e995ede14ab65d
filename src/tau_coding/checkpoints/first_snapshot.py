"""The first snapshot of a project: every file read once, straight into a pack and an index.

``git add`` on a store with no index hashes each file with git's collision-detecting SHA-1,
writes it, and hashes the whole pack again: about 3 s of CPU for 10,000 files, 200 MB. Here each
file is read once, hashed with the CPU's SHA-1 (hashlib) and copied into one uncompressed pack
(packfile.py); the index then records each file's stat data (indexfile.py), exactly what
``git add`` would have recorded, so later snapshots go through git and re-read only what changed.
Which files: those git lists (``ls-files --others --exclude-standard``), so ignore rules are
git's own.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Sequence
from pathlib import Path

from tau_coding.checkpoints.indexfile import IndexEntry, write_index
from tau_coding.checkpoints.packfile import PackWriter
from tau_coding.checkpoints.skips import too_large


def _read(path: bytes) -> tuple[os.stat_result, bytes] | None:
    """The stat data and bytes of a regular file (never through a link), or None."""
    try:
        # O_NONBLOCK: a fifo put in place of the file since its lstat must not hang the read.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        chunks = []
        while chunk := os.read(fd, max(info.st_size, 1 << 16)):
            chunks.append(chunk)
        return info, chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_first_snapshot(
    work_tree: Path,
    paths: Sequence[str],
    leave_out: Collection[str],
    limit: int,
    objects_dir: Path,
    index: Path,
) -> dict[str, str]:
    """Store ``paths`` (relative, as git lists them) less ``leave_out`` and write ``index``;
    the files left out for being larger than ``limit`` bytes, with why (as skips.py says it).

    A path that cannot be read (gone, no permission, not a file or a link) is left out, as
    ``git add --ignore-errors`` would; folders (``name/``: nested repositories) are not files.
    """
    root = os.fsencode(work_tree)
    pack = PackWriter(objects_dir)
    entries: list[IndexEntry] = []
    large: dict[str, str] = {}
    try:
        for path in paths:
            if path.endswith("/") or path in leave_out:
                continue
            relative = path.encode("utf-8", "surrogateescape")
            full = os.path.join(root, relative)
            try:
                info = os.lstat(full)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                try:
                    data = os.readlink(full)
                except OSError:
                    continue
            elif not stat.S_ISREG(info.st_mode):
                continue
            elif info.st_size > limit:
                large[path] = too_large(info.st_size, limit)
                continue
            else:
                read = _read(full)
                if read is None:
                    continue
                info, data = read
                if len(data) > limit:  # it grew since
                    large[path] = too_large(len(data), limit)
                    continue
            entries.append(IndexEntry(relative, info, pack.add(data)))
        pack.finish()
    except BaseException:
        pack.abandon()
        raise
    write_index(index, entries)
    return large


__all__ = ["write_first_snapshot"]
