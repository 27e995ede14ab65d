"""AssistantMessageEvent: how one assistant message comes about, delta by delta.

Every event but the terminal two carries ``partial``: the in-progress message, the same object
each time (never a copy), so per-delta cost is O(1). ``done`` and ``error`` carry the final
message; a stream always ends with exactly one of them (failure is data).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from tau_agent.content import TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage


@dataclass(slots=True)
class StartEvent:
    partial: AssistantMessage
    type: Literal["start"] = "start"


@dataclass(slots=True)
class TextStartEvent:
    content_index: int
    partial: AssistantMessage
    type: Literal["text_start"] = "text_start"


@dataclass(slots=True)
class TextDeltaEvent:
    content_index: int
    delta: str
    partial: AssistantMessage
    type: Literal["text_delta"] = "text_delta"


@dataclass(slots=True)
class TextEndEvent:
    content_index: int
    block: TextContent
    partial: AssistantMessage
    type: Literal["text_end"] = "text_end"

    @property
    def content(self) -> str:
        return self.block.text


@dataclass(slots=True)
class ThinkingStartEvent:
    content_index: int
    partial: AssistantMessage
    type: Literal["thinking_start"] = "thinking_start"


@dataclass(slots=True)
class ThinkingDeltaEvent:
    content_index: int
    delta: str
    partial: AssistantMessage
    type: Literal["thinking_delta"] = "thinking_delta"


@dataclass(slots=True)
class ThinkingEndEvent:
    content_index: int
    block: ThinkingContent
    partial: AssistantMessage
    type: Literal["thinking_end"] = "thinking_end"

    @property
    def content(self) -> str:
        return self.block.thinking


@dataclass(slots=True)
class ToolCallStartEvent:
    content_index: int
    partial: AssistantMessage
    type: Literal["toolcall_start"] = "toolcall_start"


@dataclass(slots=True)
class ToolCallDeltaEvent:
    """``delta`` is the raw JSON text that arrived; the partial's ToolCall holds the parsed arguments."""

    content_index: int
    delta: str
    partial: AssistantMessage
    type: Literal["toolcall_delta"] = "toolcall_delta"


@dataclass(slots=True)
class ToolCallEndEvent:
    content_index: int
    tool_call: ToolCall
    partial: AssistantMessage
    type: Literal["toolcall_end"] = "toolcall_end"


@dataclass(slots=True)
class DoneEvent:
    reason: Literal["stop", "length", "toolUse"]
    message: AssistantMessage
    type: Literal["done"] = "done"


@dataclass(slots=True)
class ErrorEvent:
    """The stream failed or was aborted; ``message`` keeps what arrived and its ``error_message``."""

    reason: Literal["error", "aborted"]
    message: AssistantMessage
    type: Literal["error"] = "error"


AssistantMessageEvent: TypeAlias = (
    StartEvent
    | TextStartEvent
    | TextDeltaEvent
    | TextEndEvent
    | ThinkingStartEvent
    | ThinkingDeltaEvent
    | ThinkingEndEvent
    | ToolCallStartEvent
    | ToolCallDeltaEvent
    | ToolCallEndEvent
    | DoneEvent
    | ErrorEvent
)
TerminalEvent: TypeAlias = DoneEvent | ErrorEvent
