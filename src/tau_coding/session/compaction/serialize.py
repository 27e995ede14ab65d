"""A transcript as plain text for a summariser to read, not to continue. Pure.

Each message becomes one labelled paragraph (``[User]``, ``[Assistant]``, ``[Assistant
thinking]``, ``[Assistant tool calls]``, ``[Tool result]``, ...). Tool results are cut to
``TOOL_RESULT_CHARS`` since the summary needs what a tool found, not every byte of it, and
any single message is cut to ``max_chars`` so that one giant paste cannot fill a request.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tau_agent.content import ThinkingContent, ToolCall, text_of
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
    UserMessage,
    bash_execution_text,
)

TOOL_RESULT_CHARS = 2000
ARGUMENT_CHARS = 300


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters left out]"


def _user_text(content: str | Sequence[object]) -> str:
    return text_of(content, image=lambda b: f"[image: {b.mime_type}]", sep="\n")


def _call_text(call: ToolCall) -> str:
    args = ", ".join(
        f"{key}={_clip(json.dumps(value, ensure_ascii=False), ARGUMENT_CHARS)}"
        for key, value in call.arguments.items()
    )
    return f"{call.name}({args})"


def serialize_message(message: AgentMessage, max_chars: int = 400_000) -> str:
    """One message as a labelled paragraph; empty when it carries nothing for a summary."""
    if isinstance(message, UserMessage):
        return f"[User]: {_clip(_user_text(message.content), max_chars)}"
    if isinstance(message, AssistantMessage):
        lines: list[str] = []
        thinking = "".join(b.thinking for b in message.content if isinstance(b, ThinkingContent))
        if thinking.strip():
            lines.append(f"[Assistant thinking]: {_clip(thinking, max_chars)}")
        if message.text.strip():
            lines.append(f"[Assistant]: {_clip(message.text, max_chars)}")
        if message.tool_calls:
            lines.append("[Assistant tool calls]: " + "; ".join(_call_text(c) for c in message.tool_calls))
        if message.stop_reason in ("error", "aborted"):
            lines.append(f"[Assistant reply failed]: {message.error_message or message.stop_reason}")
        return "\n".join(lines)
    if isinstance(message, ToolResultMessage):
        label = "[Tool error]" if message.is_error else "[Tool result]"
        body = _clip(_user_text(message.content), min(TOOL_RESULT_CHARS, max_chars))
        return f"{label} {message.tool_name}: {body}"
    if isinstance(message, BashExecutionMessage):
        if message.exclude_from_context:
            return ""
        return f"[User ran]: {_clip(bash_execution_text(message), TOOL_RESULT_CHARS)}"
    if isinstance(message, CustomMessage):
        return f"[Note {message.custom_type}]: {_clip(_user_text(message.content), max_chars)}"
    if isinstance(message, CompactionSummaryMessage):
        return f"[Summary of earlier conversation]: {message.summary}"
    assert isinstance(message, BranchSummaryMessage)
    return f"[Summary of another branch]: {message.summary}"


def serialize_conversation(messages: Sequence[AgentMessage], max_chars: int = 400_000) -> str:
    """Messages as paragraphs separated by blank lines."""
    return "\n\n".join(p for p in (serialize_message(m, max_chars) for m in messages) if p)


def chunk_messages(messages: Sequence[AgentMessage], max_chars: int) -> list[str]:
    """The conversation as texts of at most about ``max_chars`` each, cut between messages.

    A message longer than ``max_chars`` on its own is clipped to it, so every chunk fits.
    """
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for message in messages:
        paragraph = serialize_message(message, max_chars)
        if not paragraph:
            continue
        if current and size + len(paragraph) + 2 > max_chars:
            chunks.append("\n\n".join(current))
            current, size = [], 0
        current.append(paragraph)
        size += len(paragraph) + 2
    if current:
        chunks.append("\n\n".join(current))
    return chunks


__all__ = ["TOOL_RESULT_CHARS", "chunk_messages", "serialize_conversation", "serialize_message"]
