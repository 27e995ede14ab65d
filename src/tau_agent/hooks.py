"""Callable seams of the loop: gates and rewrites around tool calls, and context shaping."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ToolCall
from tau_agent.messages import AgentMessage, AssistantMessage, LlmMessage
from tau_agent.tools import AgentToolResult


@dataclass(frozen=True, slots=True)
class ToolCallContext:
    """What a hook knows about one call: the reply that asked, the call, its validated args."""

    assistant_message: AssistantMessage
    tool_call: ToolCall
    args: dict[str, Any]
    messages: Sequence[AgentMessage]


@dataclass(frozen=True, slots=True)
class BeforeToolCallResult:
    """``block=True`` refuses the call; ``reason`` becomes the error result the model sees.

    ``args``, when given, replaces the call's arguments; they are validated again against the
    tool's schema, and a replacement that does not fit becomes the call's error result.
    """

    block: bool = False
    reason: str | None = None
    args: dict[str, Any] | None = None


BeforeToolCall: TypeAlias = Callable[
    [ToolCallContext, CancellationToken], Awaitable[BeforeToolCallResult | None]
]
AfterToolCall: TypeAlias = Callable[
    [ToolCallContext, AgentToolResult, CancellationToken], Awaitable[AgentToolResult | None]
]
# Given the record itself (read-only); return it unchanged, or a new list to send instead.
TransformContext: TypeAlias = Callable[[list[AgentMessage], CancellationToken], Awaitable[list[AgentMessage]]]
ConvertToLlm: TypeAlias = Callable[[list[AgentMessage]], list[LlmMessage]]
MessageSource: TypeAlias = Callable[[], list[AgentMessage]]
# A message that ended, before it is recorded and announced: returns the message to record
# (itself, or a replacement of the same kind).
FinishMessage: TypeAlias = Callable[[AgentMessage], Awaitable[AgentMessage]]
