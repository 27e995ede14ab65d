"""McpHooks: the session's hooks when MCP is its only user (no extension host).

``/mcp`` is answered here; any other prompt first brings the MCP tools up to date (the first
one waits for servers still starting) and then goes on unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from tau_agent.content import ImageContent
from tau_agent.messages import AssistantMessage, CustomMessage
from tau_coding.mcp.status import McpCallError
from tau_coding.session.events import InputHandledEvent
from tau_coding.session.hooks import InputDecision

COMMAND_HELP = "MCP servers: state, tools, last error (/mcp reconnect [NAME])"


class McpPort(Protocol):
    """What the hooks need of the session's MCP side (``McpSession``)."""

    async def command(self, args: str) -> str: ...

    async def before_prompt(self) -> None: ...

    async def expand_input(self, text: str) -> str | None: ...

    def prompt_commands(self) -> list[tuple[str, str]]: ...

    def close(self) -> None: ...


class McpHooks:
    """SessionHooks over one McpSession."""

    def __init__(self, mcp: McpPort) -> None:
        self.mcp = mcp

    async def on_start(self) -> None:
        return None

    async def on_input(self, text: str, images: Sequence[ImageContent]) -> InputDecision:
        words = text.strip().split(maxsplit=1)
        if words and words[0] == "/mcp":
            return InputHandledEvent(await self.mcp.command(words[1] if len(words) > 1 else ""))
        await self.mcp.before_prompt()
        try:
            expanded = await self.mcp.expand_input(text)
        except McpCallError as exc:
            return InputHandledEvent(str(exc))
        return (text if expanded is None else expanded), list(images)

    async def on_stop(self, stop_hook_active: bool, last: AssistantMessage | None) -> str | None:
        return None

    async def on_pre_compact(self, trigger: Literal["manual", "auto"], custom_instructions: str) -> None:
        return None

    def command_list(self) -> Sequence[tuple[str, str]]:
        return [("mcp", COMMAND_HELP), *self.mcp.prompt_commands()]

    def render_message(self, message: CustomMessage) -> str | None:
        return None

    def shortcut_list(self) -> Sequence[tuple[str, str]]:
        return []

    async def on_shortcut(self, key: str) -> str | None:
        return None

    def on_close(self) -> None:
        self.mcp.close()
