"""MCP tools as Tau's AgentTools, named ``mcp__<server>__<tool>``.

The server's JSON schema is the tool's parameters, so the model's arguments are validated
like a built-in tool's before anything is sent. A call has the ``mcp.toolTimeoutMs`` limit
and ends when the turn is cancelled (the server is told with ``notifications/cancelled``);
either way the model gets an error result saying which, and the session goes on.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.mcp.manager import McpManager
from tau_coding.mcp.status import McpCallError, ToolInfo

PREFIX = "mcp__"
MAX_NAME = 64  # the strictest provider limit on tool names
MAX_DESCRIPTION = 2048
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def tool_name(server: str, tool: str) -> str:
    """``mcp__server__tool`` with characters providers refuse replaced by ``_``, at most 64 long."""
    return _UNSAFE.sub("_", f"{PREFIX}{server}__{tool}")[:MAX_NAME]


def parameters(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The server's input schema, as an object schema even when the server left ``type`` out."""
    out = dict(schema)
    out.setdefault("type", "object")
    if out["type"] == "object":
        out.setdefault("properties", {})
    return out


def mcp_tool(manager: McpManager, info: ToolInfo, *, timeout: float | None) -> AgentTool:
    """The AgentTool that calls ``info`` on its server through ``manager``."""

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        try:
            result = await manager.call(info.server, info.name, args, timeout=timeout, signal=signal)
        except McpCallError as exc:
            return AgentToolResult.text(str(exc), {"server": info.server, "tool": info.name}, is_error=True)
        except asyncio.CancelledError:
            if not signal.cancelled:
                raise
            return AgentToolResult.text(
                f"Call to {info.server}/{info.name} aborted", {"server": info.server}, is_error=True
            )
        from tau_coding.mcp.results import map_result

        return map_result(info.server, info.name, result)

    description = info.description.strip() or f"{info.name} (MCP server {info.server})"
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 1] + "…"
    return AgentTool(
        name=tool_name(info.server, info.name),
        description=description,
        parameters=parameters(info.schema),
        execute=execute,
        label=f"{info.server} · {info.name}",
    )
