"""RpcOutput: protocol lines to stdout, in order, flushed once per turn of the event loop.

Encoding and writing one event costs a few microseconds; flushing (a system call) is done
once for every batch of lines written in the same turn of the loop, which is what lets a
stream of ten thousand deltas leave at full speed while a lone response still goes out at
once. Only this object writes to the protocol stream.
"""

from __future__ import annotations

import asyncio
from typing import Any, BinaryIO

from tau_coding.modes.rpc.framing import encode_line


class RpcOutput:
    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._flush_scheduled = False
        self.closed = False

    def send(self, value: Any) -> None:
        """Write ``value`` as one line; silently dropped once the reader has gone away."""
        if self.closed:
            return
        try:
            self._stream.write(encode_line(value))
        except (BrokenPipeError, ValueError):  # ValueError: the stream was closed
            self.closed = True
            return
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
        self._flush_scheduled = False
        if self.closed:
            return
        try:
            self._stream.flush()
        except (BrokenPipeError, ValueError):
            self.closed = True


__all__ = ["RpcOutput"]
