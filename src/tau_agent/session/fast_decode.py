"""The fast path of reading v3 session lines: msgspec decodes them straight into typed mirrors.

Parsing a line to dicts and then reading the dicts (codec.py, wire.py: the careful path)
costs about three times what msgspec takes to decode the same bytes into structs shaped
like the format. The mirrors here accept only what the careful path reads *the same way*:
every field typed exactly as the careful path would keep it, no unknown field, no unknown
``type`` or ``role``. Whatever they refuse (a corrupt line, a field a newer writer added,
a number written as a string) raises, and the caller reads that line the careful way,
which warns, coerces and keeps extras. Tests hold both paths to equal results on every
line the mirrors accept.

A message entry keeps its mirror and turns it into an AgentMessage on first use, so
opening a compacted session never builds the messages a replay will not show.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    Cost,
    CustomMessage,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
)

# gc=False: mirrors never form reference cycles, and untracked objects are cheaper to make.
# kw_only (not inherited, so repeated on entries): required fields after the base's optional ones.


class _Wire(msgspec.Struct, forbid_unknown_fields=True, rename="camel", gc=False):
    pass


# -- content blocks ------------------------------------------------------------------------------


class _Block(_Wire, tag_field="type"):
    pass


class _Text(_Block, tag="text"):
    text: str = ""
    text_signature: str | None = None


class _Thinking(_Block, tag="thinking"):
    thinking: str = ""
    thinking_signature: str | None = None
    redacted: bool = False


class _Image(_Block, tag="image"):
    data: str = ""
    mime_type: str = ""


class _ToolCall(_Block, tag="toolCall"):
    id: str = ""
    name: str = ""
    arguments: dict[str, Any] = msgspec.field(default_factory=dict)
    thought_signature: str | None = None


# -- messages ------------------------------------------------------------------------------------


class _Cost(_Wire):
    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0
    total: float = 0.0


class _Usage(_Wire):
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    reasoning: int = 0
    total_tokens: int = 0
    cost: _Cost | None = None


class _Message(_Wire, tag_field="role"):
    timestamp: int = 0


class _User(_Message, tag="user"):
    content: str | list[_Text | _Image] = ""


class _Assistant(_Message, tag="assistant"):
    content: list[_Text | _Thinking | _ToolCall] = msgspec.field(default_factory=list)
    api: str = ""
    provider: str = ""
    model: str = ""
    usage: _Usage | None = None
    stop_reason: Literal["stop", "length", "toolUse", "error", "aborted"] = "stop"
    error_message: str | None = None
    response_id: str | None = None


class _ToolResult(_Message, tag="toolResult"):
    tool_call_id: str = ""
    tool_name: str = ""
    content: str | list[_Text | _Image] = msgspec.field(default_factory=list)
    details: Any = None
    is_error: bool = False


class _Bash(_Message, tag="bashExecution"):
    command: str = ""
    output: str = ""
    exit_code: int | None = None
    cancelled: bool = False
    truncated: bool = False
    full_output_path: str | None = None
    exclude_from_context: bool = False


class _CustomMessage(_Message, tag="custom"):
    custom_type: str = ""
    content: str | list[_Text | _Image] = ""
    display: bool = True
    details: Any = None


class _HookMessage(_CustomMessage, tag="hookMessage"):  # Pi's earlier name for a custom message
    pass


class _CompactionSummary(_Message, tag="compactionSummary"):
    summary: str = ""
    tokens_before: int = 0


class _BranchSummary(_Message, tag="branchSummary"):
    summary: str = ""
    from_id: str = ""


_AnyMessage = (
    _User
    | _Assistant
    | _ToolResult
    | _Bash
    | _CustomMessage
    | _HookMessage
    | _CompactionSummary
    | _BranchSummary
)

# -- entries -------------------------------------------------------------------------------------


class _Entry(_Wire, tag_field="type"):
    id: Annotated[str, msgspec.Meta(min_length=1)]
    parent_id: str | None = None
    timestamp: str = ""


class _MessageEntry(_Entry, tag="message", kw_only=True):
    message: _AnyMessage


class _ModelChange(_Entry, tag="model_change", kw_only=True):
    provider: str
    model_id: str


class _ThinkingLevelChange(_Entry, tag="thinking_level_change", kw_only=True):
    thinking_level: str


class _Compaction(_Entry, tag="compaction", kw_only=True):
    summary: str
    first_kept_entry_id: str | None = None
    tokens_before: int = 0
    details: Any = None
    from_hook: bool | None = None


class _BranchSummaryEntry(_Entry, tag="branch_summary", kw_only=True):
    summary: str
    from_id: str | None = None
    details: Any = None
    from_hook: bool | None = None


class _CustomEntry(_Entry, tag="custom", kw_only=True):
    custom_type: str
    data: Any = None


class _CustomMessageEntry(_Entry, tag="custom_message", kw_only=True):
    custom_type: str
    content: str | list[_Text | _Image] = ""
    display: bool = True
    details: Any = None


class _Label(_Entry, tag="label", kw_only=True):
    target_id: str
    label: str | None = None


class _SessionInfo(_Entry, tag="session_info"):
    name: str | None = None


_AnyEntry = (
    _MessageEntry
    | _ModelChange
    | _ThinkingLevelChange
    | _Compaction
    | _BranchSummaryEntry
    | _CustomEntry
    | _CustomMessageEntry
    | _Label
    | _SessionInfo
)

_DECODER = msgspec.json.Decoder(_AnyEntry)

DecodeError = msgspec.DecodeError
"""What ``decode_lines``/``decode_line`` raise for anything the mirrors refuse (a ValueError)."""

# -- mirrors to Tau's types ----------------------------------------------------------------------


def _blocks(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    append = out.append
    for b in items:
        kind = type(b)
        if kind is _Text:
            append(TextContent(b.text, b.text_signature))
        elif kind is _ToolCall:
            append(ToolCall(b.id, b.name, b.arguments, b.thought_signature))
        elif kind is _Thinking:
            append(ThinkingContent(b.thinking, b.thinking_signature, b.redacted))
        else:
            append(ImageContent(b.data, b.mime_type))
    return out


def _content(value: str | list[Any]) -> Any:
    return value if type(value) is str else _blocks(value)  # type: ignore[arg-type]


def _usage(u: _Usage | None) -> Usage:
    if u is None:
        return Usage()
    c = u.cost
    cost = Cost() if c is None else Cost(c.input, c.output, c.cache_read, c.cache_write, c.total)
    return Usage(u.input, u.output, u.cache_read, u.cache_write, u.reasoning, u.total_tokens, cost)


def to_message(entry: MessageEntry, m: Any) -> AgentMessage:
    """The AgentMessage a message mirror stands for (the ``decode`` of a deferred entry)."""
    kind = type(m)
    if kind is _Assistant:
        return AssistantMessage(
            _blocks(m.content),
            m.api,
            m.provider,
            m.model,
            _usage(m.usage),
            m.stop_reason,
            m.error_message,
            m.response_id,
            m.timestamp,
        )
    if kind is _ToolResult:
        content = m.content
        return ToolResultMessage(
            m.tool_call_id,
            m.tool_name,
            [TextContent(content)] if type(content) is str else _blocks(content),
            m.details,
            m.is_error,
            m.timestamp,
        )
    if kind is _User:
        return UserMessage(_content(m.content), m.timestamp)
    if kind is _Bash:
        return BashExecutionMessage(
            m.command,
            m.output,
            m.exit_code,
            m.cancelled,
            m.truncated,
            m.full_output_path,
            m.exclude_from_context,
            m.timestamp,
        )
    if kind is _CustomMessage or kind is _HookMessage:
        return CustomMessage(m.custom_type, _content(m.content), m.display, m.details, m.timestamp)
    if kind is _CompactionSummary:
        return CompactionSummaryMessage(m.summary, m.tokens_before, m.timestamp)
    return BranchSummaryMessage(m.summary, m.from_id, m.timestamp)


def _to_entry(e: Any) -> SessionEntry:
    """Entries other than messages, which are rare: built at once."""
    base: dict[str, Any] = {"id": e.id, "parent_id": e.parent_id, "timestamp": e.timestamp}
    kind = type(e)
    if kind is _ModelChange:
        return ModelChangeEntry(**base, provider=e.provider, model_id=e.model_id)
    if kind is _ThinkingLevelChange:
        return ThinkingLevelChangeEntry(**base, thinking_level=e.thinking_level)
    if kind is _Compaction:
        return CompactionEntry(
            **base,
            summary=e.summary,
            first_kept_entry_id=e.first_kept_entry_id or "",
            tokens_before=e.tokens_before,
            details=e.details,
            from_hook=e.from_hook,
        )
    if kind is _BranchSummaryEntry:
        return BranchSummaryEntry(
            **base, from_id=e.from_id or "root", summary=e.summary, details=e.details, from_hook=e.from_hook
        )
    if kind is _CustomEntry:
        return CustomEntry(**base, custom_type=e.custom_type, data=e.data)
    if kind is _CustomMessageEntry:
        return CustomMessageEntry(
            **base,
            custom_type=e.custom_type,
            content=_content(e.content),
            display=e.display,
            details=e.details,
        )
    if kind is _Label:
        return LabelEntry(**base, target_id=e.target_id, label=e.label)
    return SessionInfoEntry(**base, name=e.name)


def _entries(mirrors: list[Any], out: list[SessionEntry]) -> None:
    deferred = MessageEntry.deferred
    append = out.append
    for e in mirrors:
        if type(e) is _MessageEntry:
            append(deferred(e.id, e.parent_id, e.timestamp, e.message, to_message))
        else:
            append(_to_entry(e))


def decode_lines(lines: bytes | memoryview, out: list[SessionEntry]) -> None:
    """Append the entries of ``lines`` (whole ``\\n``-terminated lines; blank ones are skipped)
    to ``out``. Raises DecodeError, appending nothing, if any line is refused."""
    _entries(_DECODER.decode_lines(lines), out)


def decode_line(line: bytes) -> SessionEntry:
    """One line's entry; raises DecodeError if the mirrors refuse it."""
    out: list[SessionEntry] = []
    _entries([_DECODER.decode(line)], out)
    return out[0]


__all__ = ["DecodeError", "decode_line", "decode_lines", "to_message"]
