"""Messages: the facts on a transcript.

A message is something that happened and may be saved; events (events.py) say how it came
about. The three LLM kinds (user, assistant, toolResult) follow Pi's wire shapes. The app
kinds (bashExecution, custom, compactionSummary, branchSummary) live on the record too, and
``convert_to_llm`` turns them into what a model may see.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from tau_agent.content import (
    AssistantContent,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultContent,
    UserContent,
)

StopReason: TypeAlias = Literal["stop", "length", "toolUse", "error", "aborted"]


def now_ms() -> int:
    """Wall-clock time in milliseconds, the unit every message timestamp uses."""
    return int(time.time() * 1000)


@dataclass(slots=True)
class Cost:
    """Money spent on one reply, in US dollars."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0
    total: float = 0.0


@dataclass(slots=True)
class Usage:
    """Tokens of one reply. ``input`` excludes cache reads and writes, as in Pi."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    reasoning: int = 0
    total_tokens: int = 0
    cost: Cost = field(default_factory=Cost)


@dataclass(slots=True)
class UserMessage:
    content: str | list[UserContent]
    timestamp: int = field(default_factory=now_ms)
    role: Literal["user"] = "user"


@dataclass(slots=True)
class AssistantMessage:
    """One reply. A failed or aborted reply keeps what arrived and says why in ``error_message``."""

    content: list[AssistantContent] = field(default_factory=list)
    api: str = ""
    provider: str = ""
    model: str = ""
    usage: Usage = field(default_factory=Usage)
    stop_reason: StopReason = "stop"
    error_message: str | None = None
    response_id: str | None = None
    timestamp: int = field(default_factory=now_ms)
    role: Literal["assistant"] = "assistant"

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [block for block in self.content if isinstance(block, ToolCall)]

    @property
    def text(self) -> str:
        return "".join(block.text for block in self.content if isinstance(block, TextContent))


@dataclass(slots=True)
class ToolResultMessage:
    tool_call_id: str
    tool_name: str
    content: list[ToolResultContent]
    details: Any = None
    is_error: bool = False
    timestamp: int = field(default_factory=now_ms)
    role: Literal["toolResult"] = "toolResult"


@dataclass(slots=True)
class BashExecutionMessage:
    """A command the user ran with ``!cmd`` (``!!cmd`` sets exclude_from_context)."""

    command: str
    output: str
    exit_code: int | None
    cancelled: bool = False
    truncated: bool = False
    full_output_path: str | None = None
    exclude_from_context: bool = False
    timestamp: int = field(default_factory=now_ms)
    role: Literal["bashExecution"] = "bashExecution"


@dataclass(slots=True)
class CustomMessage:
    """An app- or extension-defined message; ``content`` reaches the model as a user message."""

    custom_type: str
    content: str | list[UserContent]
    display: bool = True
    details: Any = None
    timestamp: int = field(default_factory=now_ms)
    role: Literal["custom"] = "custom"


@dataclass(slots=True)
class CompactionSummaryMessage:
    summary: str
    tokens_before: int = 0
    timestamp: int = field(default_factory=now_ms)
    role: Literal["compactionSummary"] = "compactionSummary"


@dataclass(slots=True)
class BranchSummaryMessage:
    summary: str
    from_id: str = ""
    timestamp: int = field(default_factory=now_ms)
    role: Literal["branchSummary"] = "branchSummary"


LlmMessage: TypeAlias = UserMessage | AssistantMessage | ToolResultMessage
AgentMessage: TypeAlias = (
    UserMessage
    | AssistantMessage
    | ToolResultMessage
    | BashExecutionMessage
    | CustomMessage
    | CompactionSummaryMessage
    | BranchSummaryMessage
)

COMPACTION_PREFIX = (
    "Earlier parts of this conversation were compacted. Summary of what happened:\n\n<summary>\n"
)
BRANCH_PREFIX = (
    "The user returned here from another branch of this conversation. What happened there:\n\n<summary>\n"
)
SUMMARY_SUFFIX = "\n</summary>"


def bash_execution_text(message: BashExecutionMessage) -> str:
    """How a user-run command reads to the model."""
    lines = [f"Ran `{message.command}`"]
    lines.append(f"```\n{message.output.rstrip()}\n```" if message.output else "(no output)")
    if message.cancelled:
        lines.append("(command cancelled)")
    elif message.exit_code not in (0, None):
        lines.append(f"Command exited with code {message.exit_code}")
    if message.truncated and message.full_output_path:
        lines.append(f"[Output truncated. Full output: {message.full_output_path}]")
    return "\n".join(lines)


def message_to_llm(message: AgentMessage) -> LlmMessage | None:
    """How one message reads to a model: app kinds become user messages; ``!!`` output is dropped."""
    if isinstance(message, UserMessage | AssistantMessage | ToolResultMessage):
        return message
    if isinstance(message, BashExecutionMessage):
        if message.exclude_from_context:
            return None
        return UserMessage(bash_execution_text(message), message.timestamp)
    if isinstance(message, CustomMessage):
        return UserMessage(message.content, message.timestamp)
    if isinstance(message, CompactionSummaryMessage):
        return UserMessage(COMPACTION_PREFIX + message.summary + SUMMARY_SUFFIX, message.timestamp)
    return UserMessage(BRANCH_PREFIX + message.summary + SUMMARY_SUFFIX, message.timestamp)


def convert_to_llm(messages: list[AgentMessage]) -> list[LlmMessage]:
    """The default view of a record for a model, message by message (see ``message_to_llm``)."""
    out: list[LlmMessage] = []
    for message in messages:
        converted = message_to_llm(message)
        if converted is not None:
            out.append(converted)
    return out


def is_empty_failure(message: AgentMessage) -> bool:
    """A failed or aborted reply that produced nothing: true, kept, but never sent to a model."""
    return (
        isinstance(message, AssistantMessage)
        and message.stop_reason in ("error", "aborted")
        and not message.content
    )


def context_for_model(messages: list[AgentMessage]) -> list[AgentMessage]:
    """The record minus empty failed replies, which providers refuse. Returns a new list."""
    return [m for m in messages if not is_empty_failure(m)]


__all__ = [
    "AgentMessage",
    "AssistantMessage",
    "BashExecutionMessage",
    "BranchSummaryMessage",
    "CompactionSummaryMessage",
    "Cost",
    "CustomMessage",
    "ImageContent",
    "LlmMessage",
    "StopReason",
    "TextContent",
    "ThinkingContent",
    "ToolCall",
    "ToolResultMessage",
    "Usage",
    "UserMessage",
    "context_for_model",
    "convert_to_llm",
    "message_to_llm",
    "now_ms",
]
