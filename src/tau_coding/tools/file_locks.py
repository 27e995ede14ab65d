"""Serialise writes to one file from tool calls that run concurrently.

Two parallel ``edit`` calls on one file would each read the old text and the second rename
would silently drop the first edit. Each mutation holds the lock of the file's real path
for its whole read-modify-write. Locks are created on demand and dropped when nobody holds
or waits for them, so the table does not grow with the number of files touched.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path


class FileLocks:
    """A table of per-file asyncio locks keyed by real path; one table per set of tools."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, path: Path) -> AsyncIterator[None]:
        """Hold the lock of ``path``'s real file (symlinks resolved) for the ``with`` body."""
        key = os.path.realpath(path)
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
