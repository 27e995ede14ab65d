"""MCP in a session: a built-in extension, registered through the same API as the user's.

At activation (session start) the servers start in the background. Before each prompt goes to
the model its ``input`` handler brings the ``mcp__*`` tools up to date; the first prompt also
waits for servers still starting, at most ``mcp.startupTimeoutMs``, and then goes without the
ones not ready, saying so in one line. ``/mcp`` shows each server's state, tools and last
error; ``/mcp reconnect NAME`` restarts one. The servers shut down with the session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_agent.tools import AgentTool
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.mcp.config import ServerConfig
from tau_coding.mcp.manager import DEFAULT_CONNECT_TIMEOUT, McpManager, ServerStatus
from tau_coding.mcp.tools import mcp_tool

DEFAULT_STARTUP_TIMEOUT_MS = 10_000
DEFAULT_TOOL_TIMEOUT_MS = 300_000


@dataclass(frozen=True, slots=True)
class McpSettings:
    """``mcp.*`` settings, in seconds."""

    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT_MS / 1000
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    tool_timeout: float = DEFAULT_TOOL_TIMEOUT_MS / 1000

    @classmethod
    def from_settings(cls, get: Callable[[str], Any]) -> McpSettings:
        def seconds(key: str, default: float) -> float:
            value = get(key)
            return value / 1000 if isinstance(value, int) and value > 0 else default

        return cls(
            seconds("mcp.startupTimeoutMs", DEFAULT_STARTUP_TIMEOUT_MS / 1000),
            seconds("mcp.connectTimeoutMs", DEFAULT_CONNECT_TIMEOUT),
            seconds("mcp.toolTimeoutMs", DEFAULT_TOOL_TIMEOUT_MS / 1000),
        )


class McpExtension:
    """The ``mcp`` built-in: owns the manager and keeps the registered tools in step with it."""

    def __init__(self, servers: list[ServerConfig], settings: McpSettings, cwd: Path) -> None:
        self.settings = settings
        self.servers = servers
        self.cwd = cwd
        self.manager: McpManager | None = None
        self._tau: ExtensionAPI | None = None
        self._generation = -1
        self._registered: set[str] = set()
        self._waited = False

    def activate(self, tau: ExtensionAPI) -> None:
        self._tau = tau
        if self.manager is None:  # a /reload keeps the running servers
            self.manager = McpManager(
                self.servers,
                cwd=self.cwd,
                report=lambda line: tau.notify(line, "warning"),
                connect_timeout=self.settings.connect_timeout,
            )
            self.manager.start()
        self._generation = -1
        self._registered = set()
        tau.on("input", self._before_prompt)
        tau.on("session_shutdown", lambda _event: self.close())
        tau.register_command(
            "mcp", self._command, description="MCP servers: state, tools, last error (/mcp reconnect NAME)"
        )

    def close(self) -> None:
        if self.manager is not None:
            self.manager.close()

    async def _before_prompt(self, _event: Any) -> None:
        assert self.manager is not None and self._tau is not None
        if not self._waited:
            self._waited = True
            late = await self.manager.wait_settled(self.settings.startup_timeout)
            if late:
                self._tau.notify(
                    f"MCP: going on without {', '.join(late)}: still starting after "
                    f"{self.settings.startup_timeout:g} s (mcp.startupTimeoutMs)",
                    "warning",
                )
        self.sync_tools()

    def sync_tools(self) -> None:
        """Register the tools of every ready server, withdraw the rest (only when something changed)."""
        manager, tau = self.manager, self._tau
        if manager is None or tau is None or manager.generation == self._generation:
            return
        self._generation = manager.generation
        tools: dict[str, AgentTool] = {}
        for status in manager.statuses():
            if status.state != "ready":
                continue
            for info in status.tools:
                tool = mcp_tool(manager, info, timeout=self.settings.tool_timeout)
                tools.setdefault(tool.name, tool)
        for name in self._registered - tools.keys():
            tau.unregister_tool(name)
        for tool in tools.values():
            tau.register_tool(tool)
        self._registered = set(tools)

    async def _command(self, args: str) -> str:
        assert self.manager is not None
        words = args.split()
        if words[:1] == ["reconnect"]:
            names = words[1:] or [s.name for s in self.manager.statuses() if s.state == "failed"]
            unknown = [n for n in names if not self.manager.reconnect(n)]
            if unknown:
                return f"/mcp reconnect: no server named {unknown[0]!r}"
            return f"Reconnecting {', '.join(names)}." if names else "No failed server to reconnect."
        return status_report(self.manager.statuses())


def status_report(statuses: list[ServerStatus]) -> str:
    """What ``/mcp`` shows: one block per server."""
    if not statuses:
        return "No MCP servers configured."
    lines = ["MCP servers:"]
    for status in statuses:
        count = f", {len(status.tools)} tool(s)" if status.state == "ready" else ""
        lines.append(f"  {status.name} ({status.transport}): {status.state}{count}")
        if status.tools:
            lines.append("    " + ", ".join(t.name for t in status.tools))
        if status.error:
            lines.append(f"    last error: {status.error}")
    lines.append("/mcp reconnect NAME restarts a server.")
    return "\n".join(lines)
