"""A real MCP server (the SDK's MCPServer) for Tau's tests.

Usage: ``python tool_server.py [stdio|http PORT|sse PORT]``.
"""

import asyncio
import base64
import os
import signal
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import (
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)


def build() -> MCPServer:
    server = MCPServer("fixture")

    @server.tool()
    def echo(text: str, times: int = 1) -> str:
        """Echo text back, repeated."""
        return " ".join([text] * times)

    @server.tool()
    def every_content() -> CallToolResult:
        """One block of every content type, plus structured content."""
        pixel = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
        return CallToolResult(
            content=[
                TextContent(type="text", text="plain text"),
                ImageContent(type="image", data=pixel, mime_type="image/png"),
                ResourceLink(
                    type="resource_link", uri="file:///tmp/notes.md", name="notes", mime_type="text/markdown"
                ),
                EmbeddedResource(
                    type="resource",
                    resource=TextResourceContents(
                        uri="mem://readme", text="embedded text", mime_type="text/plain"
                    ),
                ),
                EmbeddedResource(
                    type="resource",
                    resource=BlobResourceContents(uri="mem://blob", blob=base64.b64encode(b"xyz").decode()),
                ),
            ],
            structured_content={"answer": 42},
        )

    @server.tool()
    def getenv(name: str) -> str:
        """The value of an environment variable of the server process ('' when unset)."""
        return os.environ.get(name, "")

    @server.tool()
    def fail() -> CallToolResult:
        """Always reports an error."""
        return CallToolResult(content=[TextContent(type="text", text="it broke")], is_error=True)

    @server.tool()
    async def slow(seconds: float) -> str:
        """Sleep, then answer; records a cancellation in $MCP_FIXTURE_LOG."""
        try:
            await asyncio.sleep(seconds)
        except BaseException:
            log = os.environ.get("MCP_FIXTURE_LOG")
            if log:
                with open(log, "a", encoding="utf-8") as handle:
                    handle.write("cancelled\n")
            raise
        return f"slept {seconds}"

    @server.tool()
    def die() -> str:
        """Exit the server process mid-call."""
        os._exit(3)

    @server.tool()
    def hang() -> str:
        """Stop the whole server process (SIGSTOP): it answers nothing, not even pings."""
        os.kill(os.getpid(), signal.SIGSTOP)
        return "resumed"

    @server.tool()
    async def grow(ctx: Context) -> str:
        """Add a tool named 'grown' and announce the change."""

        def grown() -> str:
            """A tool that appeared later."""
            return "grown!"

        server.add_tool(grown, name="grown")
        await ctx.session.send_tool_list_changed()
        return "added"

    @server.resource("notes://today", mime_type="text/plain")
    def today() -> str:
        """Today's notes."""
        return "Ship the MCP client."

    @server.prompt()
    def review(number: str, focus: str = "everything") -> str:
        """Review a pull request."""
        return f"Review pull request #{number}, looking at {focus}."

    return server


def main(argv: list[str]) -> None:
    server = build()
    transport = argv[0] if argv else "stdio"
    if transport == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(argv[1]))
    elif transport == "sse":
        server.run("sse", host="127.0.0.1", port=int(argv[1]))
    else:
        server.run("stdio")


if __name__ == "__main__":
    main(sys.argv[1:])
