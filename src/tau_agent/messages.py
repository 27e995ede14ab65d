"""Messages: the facts on a transcript.

A message is something that happened and may be saved; events (events.py) say how it came
about. The three LLM kinds (user, assistant, toolResult) follow Pi's wire shapes. The app
kinds (bashExecution, custom, compactionSummary, branchSummary) live on the record too, and
``convert_to_llm`` turns them into what a model may see.

Messages are msgspec Structs, like the content blocks: a session file decodes straight into
them, the ``role`` tag naming the class. Their fields default the way a reader treats a
missing field (empty text, no content), except ``timestamp``, which defaults to now.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, ClassVar, Literal, TypeAlias

import msgspec

from tau_agent.content import (
    AssistantContent,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultContent,
    UserContent,
    text_of,
)

StopReason: TypeAlias = Literal["stop", "length", "toolUse", "error", "aborted"]


def now_ms() -> int:
    """Wall-clock time in milliseconds, the unit every message timestamp uses."""
    return int(time.time() * 1000)


class _Value(msgspec.Struct, forbid_unknown_fields=True, rename="camel", gc=False):
    pass


class Cost(_Value):
    """Money spent on one reply, in US dollars."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0
    total: float = 0.0


class Usage(_Value):
    """Tokens of one reply. ``input`` excludes cache reads and writes, as in Pi."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    reasoning: int = 0
    total_tokens: int = 0
    cost: Cost = msgspec.field(default_factory=Cost)


# gc=False: a message holds strings, blocks (untracked too), usage and plain JSON details;
# nothing in it leads back to the message, and a long session holds one per line, which the
# cyclic collector then never has to scan (tau_agent/session/bulk.py).
class _Message(msgspec.Struct, forbid_unknown_fields=True, rename="camel", tag_field="role", gc=False):
    pass


class UserMessage(_Message, tag="user"):
    content: str | list[UserContent] = ""
    timestamp: int = msgspec.field(default_factory=now_ms)
    role: ClassVar[Literal["user"]] = "user"


class AssistantMessage(_Message, tag="assistant"):
    """One reply. A failed or aborted reply keeps what arrived and says why in ``error_message``."""

    content: list[AssistantContent] = msgspec.field(default_factory=list)
    api: str = ""
    provider: str = ""
    model: str = ""
    usage: Usage = msgspec.field(default_factory=Usage)
    stop_reason: StopReason = "stop"
    error_message: str | None = None
    response_id: str | None = None
    timestamp: int = msgspec.field(default_factory=now_ms)
    # The model the server says answered, when it differs from ``model`` (a router's choice).
    response_model: str | None = None
    role: ClassVar[Literal["assistant"]] = "assistant"

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [block for block in self.content if isinstance(block, ToolCall)]

    @property
    def text(self) -> str:
        return text_of(self.content)


class ToolResultMessage(_Message, tag="toolResult"):
    tool_call_id: str = ""
    tool_name: str = ""
    content: list[ToolResultContent] = msgspec.field(default_factory=list)
    details: Any = None
    is_error: bool = False
    timestamp: int = msgspec.field(default_factory=now_ms)
    role: ClassVar[Literal["toolResult"]] = "toolResult"


class BashExecutionMessage(_Message, tag="bashExecution"):
    """A command the user ran with ``!cmd`` (``!!cmd`` sets exclude_from_context)."""

    command: str = ""
    output: str = ""
    exit_code: int | None = None
    cancelled: bool = False
    truncated: bool = False
    full_output_path: str | None = None
    exclude_from_context: bool = False
    timestamp: int = msgspec.field(default_factory=now_ms)
    role: ClassVar[Literal["bashExecution"]] = "bashExecution"


class CustomMessage(_Message, tag="custom"):
    """An app- or extension-defined message; ``content`` reaches the model as a user message."""

    custom_type: str = ""
    content: str | list[UserContent] = ""
    display: bool = True
    details: Any = None
    timestamp: int = msgspec.field(default_factory=now_ms)
    role: ClassVar[Literal["custom"]] = "custom"


class CompactionSummaryMessage(_Message, tag="compactionSummary"):
    summary: str = ""
    tokens_before: int = 0
    timestamp: int = msgspec.field(default_factory=now_ms)
    role: ClassVar[Literal["compactionSummary"]] = "compactionSummary"


class BranchSummaryMessage(_Message, tag="branchSummary"):
    summary: str = ""
    from_id: str = ""
    timestamp: int = msgspec.field(default_factory=now_ms)
    role: ClassVar[Literal["branchSummary"]] = "branchSummary"


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


def extend_llm_view(messages: Iterable[AgentMessage], out: list[LlmMessage]) -> None:
    """Append to ``out`` what the default view sends a model for ``messages``: the same as
    ``convert_to_llm(context_for_model(messages))``, one message at a time, so a caller can
    extend a view it keeps. The three LLM kinds, which are nearly every message of a long
    session, are told by their exact type (one comparison, where the general path costs two
    calls and several ``isinstance`` checks per message)."""
    append = out.append
    for message in messages:
        kind = type(message)
        if kind is UserMessage or kind is ToolResultMessage:
            append(message)  # type: ignore[arg-type]  # told by its exact type just above
        elif kind is AssistantMessage:
            if message.content or message.stop_reason not in ("error", "aborted"):  # type: ignore[union-attr]
                append(message)  # type: ignore[arg-type]
        elif not is_empty_failure(message):
            converted = message_to_llm(message)
            if converted is not None:
                append(converted)


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
    "extend_llm_view",
    "message_to_llm",
    "now_ms",
]
