"""The process's standard streams for RPC mode.

Protocol lines need stdout to themselves: ``protect_stdout`` keeps a private handle on the
original stdout and points file descriptor 1 (and ``sys.stdout``) at stderr, so a stray
print, a library's warning or a child process that inherits the descriptor cannot corrupt
the stream. Stdin is read without blocking the event loop whether it is a pipe, a terminal
or a regular file.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from typing import BinaryIO


def protect_stdout() -> BinaryIO:
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=1 << 16)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    return protocol


async def stdin_reader(fd: int | None = None) -> asyncio.StreamReader:
    """A StreamReader over stdin: a pipe transport when possible, else a reading thread."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 20)
    fd = sys.stdin.fileno() if fd is None else fd
    try:
        pipe = os.fdopen(os.dup(fd), "rb", buffering=0)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
        return reader
    except (ValueError, OSError):  # a regular file cannot be watched by the event loop
        pass

    def pump() -> None:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                loop.call_soon_threadsafe(reader.feed_eof)
                return
            loop.call_soon_threadsafe(reader.feed_data, chunk)

    threading.Thread(target=pump, name="tau-rpc-stdin", daemon=True).start()
    return reader


__all__ = ["protect_stdout", "stdin_reader"]
