"""Collect a command's output in bounded memory: a rolling tail, counts, and a spill file.

Only the last few budgets' worth of bytes stay in memory however much a command prints.
Once the output passes the budget (lines or bytes), the output from the first byte is also
written to a log file whose path the result names, up to ``spill_limit`` bytes (then the
log stops growing and ``spill_full`` says so; the tail in memory still has the end). Every
log file is removed when the process exits (``remove_spill_files``, run at exit).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import tempfile
from pathlib import Path
from typing import BinaryIO

from tau_coding.tools.truncate import Truncation, truncate_tail

DEFAULT_SPILL_LIMIT = 64 * 1024 * 1024
_SPILLED: set[Path] = set()


def remove_spill_files() -> None:
    """Delete every log file this process wrote (idempotent)."""
    for path in list(_SPILLED):
        with contextlib.suppress(OSError):
            path.unlink()
        _SPILLED.discard(path)


class OutputSink:
    def __init__(
        self,
        max_lines: int,
        max_bytes: int,
        temp_dir: Path | None = None,
        spill_limit: int = DEFAULT_SPILL_LIMIT,
    ) -> None:
        self.max_lines = max_lines
        self.spill_limit = spill_limit
        self.spill_full = False
        self._spilled = 0
        self.max_bytes = max_bytes
        self._temp_dir = temp_dir
        self._keep = 2 * max_bytes + 4096  # enough that the tail budget always binds on real bytes
        self._tail = bytearray()
        self._trimmed = False
        self._spill: BinaryIO | None = None
        self.spill_path: Path | None = None
        self.total_bytes = 0
        self.newlines = 0
        self._current = 0  # bytes after the last newline so far
        self._last_terminated = 0  # length of the last line that ended with a newline

    def append(self, chunk: bytes) -> None:
        if not chunk:
            return
        self.total_bytes += len(chunk)
        newlines = chunk.count(b"\n")
        self.newlines += newlines
        if newlines:
            last = chunk.rfind(b"\n")
            before = chunk.rfind(b"\n", 0, last)
            self._last_terminated = last - before - 1 if before >= 0 else self._current + last
            self._current = len(chunk) - last - 1
        else:
            self._current += len(chunk)
        if self._spill is not None:
            self._write_spill(chunk)
        elif self.total_bytes > self.max_bytes or self.newlines >= self.max_lines:
            self._open_spill()
            self._write_spill(bytes(self._tail))  # everything so far: nothing was trimmed yet
            self._write_spill(chunk)
        self._tail += chunk
        if len(self._tail) > 2 * self._keep:
            del self._tail[: len(self._tail) - self._keep]
            self._trimmed = True

    def _write_spill(self, data: bytes) -> None:
        assert self._spill is not None
        room = self.spill_limit - self._spilled
        if len(data) > room:
            data = data[: max(room, 0)]
            self.spill_full = True
        if data:
            self._spill.write(data)
            self._spilled += len(data)

    def _open_spill(self) -> None:
        fd, name = tempfile.mkstemp(prefix="tau-bash-", suffix=".log", dir=self._temp_dir)
        self._spill = os.fdopen(fd, "wb")
        self.spill_path = Path(name)
        if not _SPILLED:
            atexit.register(remove_spill_files)
        _SPILLED.add(self.spill_path)

    def close(self) -> None:
        if self._spill is not None:
            self._spill.close()

    @property
    def total_lines(self) -> int:
        return self.newlines + (1 if self._current else 0)

    @property
    def last_line_bytes(self) -> int:
        """The byte length of the last line, whether or not a newline ended it yet."""
        return self._current if self._current else self._last_terminated

    def tail_text(self) -> str:
        """The kept tail as text; a line cut by trimming memory is dropped unless it is the only one."""
        data = bytes(self._tail)
        if self._trimmed:
            cut = data.find(b"\n")
            if 0 <= cut < len(data) - 1:
                data = data[cut + 1 :]
        return data.decode("utf-8", errors="replace").replace("\r\n", "\n")

    def truncated(self) -> Truncation:
        """The tail within budget; counts in the result refer to what ``tail_text`` holds."""
        return truncate_tail(self.tail_text(), self.max_lines, self.max_bytes)
