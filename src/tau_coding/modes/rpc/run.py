"""Run RPC mode until stdin ends; the CLI's entry point for ``tau --mode rpc``."""

from __future__ import annotations

import asyncio
from typing import BinaryIO

from tau_coding.modes.rpc import make_server
from tau_coding.modes.rpc.output import RpcOutput
from tau_coding.modes.rpc.stdio import stdin_reader
from tau_coding.session_control import SessionControl


async def run_rpc(control: SessionControl, protocol_out: BinaryIO) -> int:
    """Serve commands from stdin; returns the exit code (0: the input ended normally)."""
    server = make_server(control, RpcOutput(protocol_out))
    reader = await stdin_reader()
    try:
        await server.serve(reader)
    except asyncio.CancelledError:
        return 130
    return 0


__all__ = ["run_rpc"]
