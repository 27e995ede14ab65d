"""Handlers of the MCP commands (docs/rpc.md, docs/mcp.md).

``get_mcp_status`` answers ``{"servers": [...]}`` (what ``/mcp`` shows); ``mcp_restart`` takes
``server`` and restarts it now; ``mcp_set_enabled`` takes ``server`` and ``enabled`` and offers
or withholds its tools from the next model request on. A session without MCP servers answers
``get_mcp_status`` with no servers and the other two with an error.
"""

from __future__ import annotations

from typing import Any

from tau_coding.modes.rpc.fields import Fields
from tau_coding.modes.rpc.responses import CommandError
from tau_coding.modes.rpc.server import Handler, RpcServer
from tau_coding.session.mcp_port import McpControl


def _mcp(server: RpcServer, name: str) -> McpControl:
    mcp = server.control.session.mcp
    if mcp is None:
        raise CommandError(f"no MCP server named {name!r}: this session has none")
    return mcp


async def get_mcp_status(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    mcp = server.control.session.mcp
    return {"servers": mcp.status() if mcp is not None else []}


async def mcp_restart(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    name = fields.text("server", non_empty=True)
    if not _mcp(server, name).restart(name):
        raise CommandError(f"no MCP server named {name!r}")
    return {"server": name, "restarting": True}


async def mcp_set_enabled(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    name = fields.text("server", non_empty=True)
    enabled = fields.flag("enabled")
    if not _mcp(server, name).set_enabled(name, enabled):
        raise CommandError(f"no MCP server named {name!r}")
    return {"server": name, "enabled": enabled}


MCP_HANDLERS: dict[str, Handler] = {
    "get_mcp_status": get_mcp_status,
    "mcp_restart": mcp_restart,
    "mcp_set_enabled": mcp_set_enabled,
}

__all__ = ["MCP_HANDLERS"]
