"""One live connection to one MCP server, through the official ``mcp`` SDK.

The only module that imports the SDK's client; it is imported on the MCP thread, never at
start-up. ``open_connection`` enters the transport and the session (the ``initialize``
handshake, Claude Code-era protocol, which every deployed server speaks) on an exit stack
the caller closes from the same task. A stdio server's stderr goes to a temporary file so
that it neither scribbles over the terminal nor is lost: its last line explains a failure.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import IO, Any

from mcp import Client
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import (
    CallToolResult,
    GetPromptResult,
    Prompt,
    PromptListChangedNotification,
    ReadResourceResult,
    Tool,
    ToolListChangedNotification,
)

from tau_coding.mcp.config import ServerConfig

CLIENT_NAME = "tau"


class Connection:
    """An entered SDK client plus what explains its failures."""

    def __init__(self, client: Client, stderr: IO[str] | None) -> None:
        self.client = client
        self._stderr = stderr

    async def list_tools(self) -> list[Tool]:
        tools: list[Tool] = []
        cursor: str | None = None
        for _ in range(100):  # a paginator that never ends must not hang start-up
            page = await self.client.list_tools(cursor=cursor, cache_mode="refresh")
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        return tools

    async def list_prompts(self) -> list[Prompt]:
        """The server's prompts; none when it offers none."""
        if self.client.server_capabilities.prompts is None:
            return []
        prompts: list[Prompt] = []
        cursor: str | None = None
        for _ in range(100):
            page = await self.client.list_prompts(cursor=cursor, cache_mode="refresh")
            prompts.extend(page.prompts)
            cursor = page.next_cursor
            if not cursor:
                break
        return prompts

    async def list_resource_uris(self) -> list[str]:
        """The URIs of the server's resources (not templates); none when it offers none."""
        if self.client.server_capabilities.resources is None:
            return []
        uris: list[str] = []
        cursor: str | None = None
        for _ in range(100):
            page = await self.client.list_resources(cursor=cursor, cache_mode="refresh")
            uris.extend(str(r.uri) for r in page.resources)
            cursor = page.next_cursor
            if not cursor:
                break
        return uris

    async def get_prompt(self, name: str, args: dict[str, str]) -> GetPromptResult:
        return await self.client.get_prompt(name, args)

    async def read_resource(self, uri: str) -> ReadResourceResult:
        return await self.client.read_resource(uri, cache_mode="refresh")

    async def call_tool(self, name: str, args: dict[str, Any], timeout: float | None) -> CallToolResult:
        return await self.client.call_tool(name, args, read_timeout_seconds=timeout)

    async def ping(self) -> None:
        """Returns once the server answers a ping (it may be slow, but it is not hung)."""
        await self.client.session.send_ping()

    def stderr_tail(self) -> str:
        """The server's last non-empty line of stderr ('' for HTTP servers or a quiet one)."""
        if self._stderr is None:
            return ""
        try:
            self._stderr.flush()
            self._stderr.seek(0)
            lines = [line.strip() for line in self._stderr.read()[-4000:].splitlines() if line.strip()]
        except (OSError, ValueError):
            return ""
        return lines[-1] if lines else ""


async def open_connection(
    server: ServerConfig,
    stack: AsyncExitStack,
    *,
    cwd: Path,
    scrub_env: frozenset[str] = frozenset(),
    on_tools_changed: Callable[[], Awaitable[None]],
    on_prompts_changed: Callable[[], Awaitable[None]],
    on_transport_error: Callable[[Exception], Awaitable[None]],
    token_file: Path | None = None,
    open_url: Callable[[str], object] | None = None,
) -> Connection:
    """Connect and initialize; closing ``stack`` shuts the server (or the HTTP session) down.

    With ``token_file`` and ``open_url``, a streamable-HTTP server that asks for OAuth gets it
    (``tau_coding.mcp.oauth``): ``open_url`` is given the authorization URL."""

    async def handler(message: Any) -> None:
        if isinstance(message, Exception):
            await on_transport_error(message)
        elif isinstance(message, ToolListChangedNotification):
            await on_tools_changed()
        elif isinstance(message, PromptListChangedNotification):
            await on_prompts_changed()

    stderr: IO[str] | None = None
    transport: Any
    if server.transport == "stdio":
        stderr = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace"))  # noqa: SIM115 (closed with the stack)
        # Tau's environment (the SDK's default keeps only a few variables, and servers commonly
        # read tokens and proxies from it) less the credentials Tau reads keys from, then the entry's.
        inherited = {k: v for k, v in os.environ.items() if k not in scrub_env}
        params = StdioServerParameters(
            command=server.command, args=list(server.args), env={**inherited, **server.env}, cwd=cwd
        )
        transport = stdio_client(params, errlog=stderr)
    elif server.transport == "sse":
        transport = sse_client(server.url, headers=dict(server.headers) or None)
    else:
        auth = None
        if token_file is not None and open_url is not None:
            from tau_coding.mcp.oauth import LoopbackCallback, oauth_provider

            callback = LoopbackCallback()
            await callback.start()
            stack.push_async_callback(callback.close)
            auth = await oauth_provider(server.url, callback, token_file, open_url)
        http = await stack.enter_async_context(
            create_mcp_http_client(headers=dict(server.headers) or None, auth=auth)
        )
        transport = streamable_http_client(server.url, http_client=http)
    client = Client(transport, mode="legacy", message_handler=handler, cache=None)
    connection = Connection(client, stderr)
    try:
        await stack.enter_async_context(client)
    except BaseException as exc:
        exc.add_note(connection.stderr_tail())
        raise
    return connection
