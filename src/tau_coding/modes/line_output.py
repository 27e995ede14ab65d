"""LineOutput: protocol lines to a byte stream, in order, written once per turn of the event loop.

Lines are kept in memory as they come and written with one system call for every batch
written in the same turn of the loop (all the deltas of one network read, say), which is
what lets ten thousand deltas leave at full speed while a lone line still goes out at once.
Without a running loop a line is written at once. The stream may be buffered or raw (stdout
under ``python -u``): each batch is written whole, then flushed. Once the reader has gone
away (a broken pipe) or the stream was closed, lines are silently dropped and ``closed`` is set.
Call it from the event loop's thread (another thread hands lines over with ``call_soon_threadsafe``).
"""

from __future__ import annotations

import asyncio
from typing import BinaryIO


class LineOutput:
    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._pending = bytearray()
        self._flush_scheduled = False
        self.closed = False

    def write_line(self, line: bytes) -> None:
        """Queue one encoded line (ending in LF) for the end of this turn of the loop."""
        if self.closed:
            return
        self._pending += line
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write what is queued and flush the stream."""
        self._flush_scheduled = False
        data, self._pending = self._pending, bytearray()
        if self.closed:
            return
        try:
            view = memoryview(data)
            while view:
                written = self._stream.write(view)
                view = view[written:]
            self._stream.flush()
        except (BrokenPipeError, ValueError):  # ValueError: the stream was closed
            self.closed = True


__all__ = ["LineOutput"]
