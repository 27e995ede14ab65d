"""McpHooks: the session's hooks when no extension host is loaded, wrapping the built-in ones.

``/mcp`` is answered here; the built-in hooks (``/reload`` and Tau's other commands) answer
theirs; any other prompt first brings the MCP tools up to date (the first one waits for
servers still starting), has MCP prompts and resources expanded, and then goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Protocol

from tau_agent.content import ImageContent
from tau_agent.messages import AssistantMessage, CustomMessage
from tau_coding.mcp.status import McpCallError
from tau_coding.session.events import InputHandledEvent
from tau_coding.session.hooks import (
    AGREED,
    ChangeAnswer,
    InputDecision,
    LeaveReason,
    ModelSource,
    OwnCommand,
    SessionChange,
    SessionHooks,
    UserBashOutcome,
)

if TYPE_CHECKING:
    from tau_agent.provider import ThinkingLevel
    from tau_ai.model import Model

COMMAND_HELP = "MCP servers: state, tools, last error (/mcp restart|enable|disable NAME)"


class McpPort(Protocol):
    """What the hooks need of the session's MCP side (``McpSession``)."""

    async def command(self, args: str) -> str: ...

    async def before_prompt(self) -> None: ...

    async def expand_input(self, text: str) -> str | None: ...

    def prompt_commands(self) -> list[tuple[str, str]]: ...

    def close(self) -> None: ...


class McpHooks:
    """SessionHooks over one McpSession and the hooks the session had before (if any)."""

    def __init__(self, mcp: McpPort, inner: SessionHooks | None = None) -> None:
        self.mcp = mcp
        self.inner = inner

    async def on_start(self) -> None:
        if self.inner is not None:
            await self.inner.on_start()

    async def on_input(self, text: str, images: Sequence[ImageContent]) -> InputDecision:
        words = text.strip().split(maxsplit=1)
        if words and words[0] == "/mcp":
            return InputHandledEvent(await self.mcp.command(words[1] if len(words) > 1 else ""))
        current = list(images)
        if self.inner is not None:
            decision = await self.inner.on_input(text, current)
            if isinstance(decision, InputHandledEvent):
                return decision
            text, current = decision
        await self.mcp.before_prompt()
        try:
            expanded = await self.mcp.expand_input(text)
        except McpCallError as exc:
            return InputHandledEvent(str(exc))
        return (text if expanded is None else expanded), current

    async def on_stop(self, stop_hook_active: bool, last: AssistantMessage | None) -> str | None:
        return await self.inner.on_stop(stop_hook_active, last) if self.inner is not None else None

    async def on_pre_compact(self, trigger: Literal["manual", "auto"], custom_instructions: str) -> None:
        if self.inner is not None:
            await self.inner.on_pre_compact(trigger, custom_instructions)

    def command_list(self) -> Sequence[tuple[str, str]]:
        inner = list(self.inner.command_list()) if self.inner is not None else []
        return [*inner, ("mcp", COMMAND_HELP), *self.mcp.prompt_commands()]

    def own_command(self, name: str) -> OwnCommand | None:
        return self.inner.own_command(name) if self.inner is not None else None

    def render_message(self, message: CustomMessage) -> str | None:
        return self.inner.render_message(message) if self.inner is not None else None

    def shortcut_list(self) -> Sequence[tuple[str, str]]:
        return self.inner.shortcut_list() if self.inner is not None else []

    async def on_shortcut(self, key: str) -> str | None:
        return await self.inner.on_shortcut(key) if self.inner is not None else None

    def before_change(self, change: SessionChange) -> str | None:
        return self.inner.before_change(change) if self.inner is not None else None

    async def ask_change(self, change: SessionChange) -> ChangeAnswer:
        return await self.inner.ask_change(change) if self.inner is not None else AGREED

    def after_change(self, change: SessionChange) -> None:
        if self.inner is not None:
            self.inner.after_change(change)

    def on_leave(self, reason: LeaveReason, target_file: str | None) -> None:
        if self.inner is not None:
            self.inner.on_leave(reason, target_file)

    def on_model_select(self, model: Model, previous: Model | None, source: ModelSource) -> None:
        if self.inner is not None:
            self.inner.on_model_select(model, previous, source)

    def on_thinking_select(self, level: ThinkingLevel, previous: ThinkingLevel) -> None:
        if self.inner is not None:
            self.inner.on_thinking_select(level, previous)

    async def on_user_bash(self, command: str, exclude_from_context: bool) -> UserBashOutcome | None:
        return await self.inner.on_user_bash(command, exclude_from_context) if self.inner else None

    def on_close(self) -> None:
        try:
            if self.inner is not None:
                self.inner.on_close()
        finally:
            self.mcp.close()
