"""McpControl: what a frontend may ask of the session's MCP servers (set by the composition root).

The session layer knows MCP only through this seam; ``tau_coding.mcp.session.McpSession``
implements it. RPC's ``get_mcp_status``, ``mcp_restart`` and ``mcp_set_enabled`` use it.
"""

from __future__ import annotations

from typing import Any, Protocol


class McpControl(Protocol):
    def status(self) -> list[dict[str, Any]]:
        """One JSON-ready object per configured server: name, transport, state, enabled, tools,
        prompts, error (docs/rpc.md)."""
        ...

    def restart(self, name: str) -> bool:
        """Restart the server now, whatever its backoff; False when there is no such server."""
        ...

    def resource_mentions(self) -> list[str]:
        """``server:uri`` for each resource of a ready, enabled server (``@`` completion)."""
        ...

    def set_enabled(self, name: str, enabled: bool) -> bool:
        """Offer or withhold the server's tools from the next model request on; False when there
        is no such server."""
        ...
