"""Markdown export of a session's active path: what was said, run and answered, in order.

Pure: the caller replays the session (``SessionLog.state()``) and writes the string where it
likes. Text is copied verbatim; tool arguments and outputs go in code fences made longer
than any run of backticks inside them, so no content can break out of its block.
"""

from __future__ import annotations

import json
import re

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall, text_of
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_agent.session.entries import SessionHeader
from tau_agent.session.state import SessionState

_TICKS = re.compile(r"`{3,}")


def fence(body: str, language: str = "") -> str:
    """``body`` in a code fence no line of it can close."""
    longest = max((len(m) for m in _TICKS.findall(body)), default=2)
    ticks = "`" * (longest + 1)
    return f"{ticks}{language}\n{body.rstrip(chr(10))}\n{ticks}"


def _content(content: str | list[TextContent | ImageContent]) -> str:
    return text_of(content, image=lambda b: f"*[image: {b.mime_type}]*", sep="\n\n")


def _assistant(message: AssistantMessage) -> list[str]:
    parts: list[str] = []
    for block in message.content:
        if isinstance(block, TextContent):
            parts.append(block.text)
        elif isinstance(block, ThinkingContent):
            if block.thinking:
                parts.append("\n".join(f"> {line}" for line in block.thinking.splitlines()))
        elif isinstance(block, ToolCall):
            args = json.dumps(block.arguments, indent=2, ensure_ascii=False)
            parts.append(f"**Tool call** `{block.name}`\n\n{fence(args, 'json')}")
    if message.stop_reason in ("error", "aborted"):
        parts.append(f"*[{message.stop_reason}: {message.error_message or 'no reason given'}]*")
    return parts


def _section(message: AgentMessage) -> tuple[str, list[str]]:
    if isinstance(message, UserMessage):
        return "User", [_content(message.content)]
    if isinstance(message, AssistantMessage):
        label = f"Assistant ({message.provider}/{message.model})" if message.model else "Assistant"
        return label, _assistant(message)
    if isinstance(message, ToolResultMessage):
        title = f"Tool result: {message.tool_name}" + (" (error)" if message.is_error else "")
        return title, [fence(_content(list(message.content)))]
    if isinstance(message, BashExecutionMessage):
        return f"Command: `{message.command}`", [fence(message.output or "(no output)")]
    if isinstance(message, CustomMessage):
        return f"Note ({message.custom_type})", [_content(message.content)]
    if isinstance(message, CompactionSummaryMessage):
        return "Summary of earlier conversation", [message.summary]
    return "Summary of another branch", [message.summary]


def session_markdown(header: SessionHeader, state: SessionState) -> str:
    """The active path of a replayed session as one Markdown document."""
    title = state.name or next(
        (_content(m.content) for m in state.messages if isinstance(m, UserMessage)), "Session"
    )
    lines = [f"# {title.splitlines()[0] if title else 'Session'}", ""]
    lines.append(f"- Session: `{header.id}`")
    lines.append(f"- Started: {header.timestamp} in `{header.cwd}`")
    if state.model is not None:
        lines.append(
            f"- Model: {state.model.provider}/{state.model.model_id}, thinking {state.thinking_level}"
        )
    for message in state.messages:
        heading, parts = _section(message)
        lines.extend(["", f"## {heading}", ""])
        lines.append("\n\n".join(p for p in parts if p))
    return "\n".join(lines).rstrip("\n") + "\n"


__all__ = ["fence", "session_markdown"]
