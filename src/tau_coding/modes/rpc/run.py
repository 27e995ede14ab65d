"""Run RPC mode until stdin ends; the CLI's entry point for ``tau --mode rpc``."""

from __future__ import annotations

import asyncio
from typing import BinaryIO

from tau_coding.common.collector import settled_heap
from tau_coding.extensions.ui import LateBoundUI
from tau_coding.modes.rpc import make_server
from tau_coding.modes.rpc.extension_ui import RpcUI
from tau_coding.modes.rpc.output import RpcOutput
from tau_coding.modes.rpc.stdio import stdin_reader
from tau_coding.session.control import SessionControl


async def run_rpc(control: SessionControl, protocol_out: BinaryIO, ui: LateBoundUI | None = None) -> int:
    """Serve commands from stdin; returns the exit code (0: the input ended normally).

    ``ui``: the bridge the session's extensions were given; it is pointed at the client here.
    """
    server = make_server(control, RpcOutput(protocol_out))
    if ui is not None:
        ui.bind(RpcUI(server.ui))
    loop = asyncio.get_running_loop()

    def run_from_record() -> bool:  # an extension's handler may run in a worker thread
        loop.call_soon_threadsafe(server.run_from_record)
        return True

    control.run_from_record = run_from_record

    def shutdown() -> None:  # likewise
        loop.call_soon_threadsafe(server.request_shutdown)

    control.shutdown = shutdown
    reader = await stdin_reader()
    try:
        with settled_heap():
            await server.serve(reader)
    except asyncio.CancelledError:
        return 130
    return 0


__all__ = ["run_rpc"]
