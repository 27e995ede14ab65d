"""One line saying what a session entry is: the /tree screen's rows and the HTML export's
tree both list entries with it. Pure.

A message reads as its role and the first line of its text (``user: fix the test``), a tool
result as the tool's name, a reply that only calls tools as their names; other entries in
brackets (``[compaction: 1200 tokens summarised]``). Lines are cut to ``TEXT_LIMIT``
characters with an ellipsis.
"""

from __future__ import annotations

from tau_agent.content import ToolCall, text_of
from tau_agent.messages import (
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
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
    UnknownEntry,
)

TEXT_LIMIT = 100


def describe(entry: SessionEntry) -> str | None:
    """One line for ``entry``; None only for Tau's leaf markers, which no filter shows."""
    if isinstance(entry, MessageEntry):
        return _describe_message(entry)
    if isinstance(entry, CompactionEntry):
        return f"[compaction: {entry.tokens_before} tokens summarised]"
    if isinstance(entry, BranchSummaryEntry):
        return "[branch summary] " + _first_line(entry.summary)
    if isinstance(entry, CustomMessageEntry):
        return f"[{entry.custom_type}] " + _first_line(_content_text(entry.content))
    if isinstance(entry, ModelChangeEntry):
        return f"[model: {entry.provider}/{entry.model_id}]"
    if isinstance(entry, ThinkingLevelChangeEntry):
        return f"[thinking: {entry.thinking_level}]"
    if isinstance(entry, LabelEntry):
        return f"[label: {entry.label}]" if entry.label is not None else "[label cleared]"
    if isinstance(entry, SessionInfoEntry):
        return f"[name: {entry.name}]" if entry.name is not None else "[session info]"
    if isinstance(entry, CustomEntry):
        return None if entry.is_leaf_marker else f"[custom: {entry.custom_type}]"
    if isinstance(entry, UnknownEntry):
        return f"[{entry.raw_type}]"
    return None


def _describe_message(entry: MessageEntry) -> str:
    message = entry.message
    if isinstance(message, UserMessage):
        return "user: " + _first_line(_content_text(message.content))
    if isinstance(message, AssistantMessage):
        if message.text.strip():
            return "assistant: " + _first_line(message.text)
        calls = [b.name for b in message.content if isinstance(b, ToolCall)]
        return "assistant: [" + ", ".join(calls) + "]" if calls else "assistant: (empty)"
    if isinstance(message, ToolResultMessage):
        return f"{message.tool_name} result" + (" (error)" if message.is_error else "")
    if isinstance(message, BashExecutionMessage):
        return "!" + _first_line(message.command)
    if isinstance(message, CustomMessage):
        return f"[{message.custom_type}] " + _first_line(_content_text(message.content))
    if isinstance(message, CompactionSummaryMessage):
        return "[compaction summary] " + _first_line(message.summary)
    if isinstance(message, BranchSummaryMessage):
        return "[branch summary] " + _first_line(message.summary)
    return "[message]"


def _content_text(content: str | list[object] | object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return text_of(content) or "(image)"
    return ""


def _first_line(text: str) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= TEXT_LIMIT else line[: TEXT_LIMIT - 1] + "…"


__all__ = ["TEXT_LIMIT", "describe"]
