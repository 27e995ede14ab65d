"""RpcOutput: protocol lines to stdout, in order, written once per turn of the event loop.

Encoding and queueing one event costs a few microseconds; writing (a system call) is done
once for every batch of lines queued in the same turn of the loop (``LineOutput``), which is
what lets a stream of ten thousand deltas leave at full speed while a lone response still
goes out at once. Only this object writes to the protocol stream.
"""

from __future__ import annotations

from typing import Any

from tau_coding.modes.line_output import LineOutput
from tau_coding.modes.rpc.framing import encode_line


class RpcOutput(LineOutput):
    def send(self, value: Any) -> None:
        """Write ``value`` as one line; silently dropped once the reader has gone away."""
        self.write_line(encode_line(value))


__all__ = ["RpcOutput"]
