"""A child's transcript: as the ``tau.subagent`` session entry, and as the lines shown live.

The entry (a custom entry, never part of any model's context; Pi skips custom entries it does
not know) keeps everything the child did: ``{"toolCallId", "agent", "description", "model",
"depth", "messages": [...], "usage", "error"}``, the messages in the session file's own
message format. It is written when the child ends, so it reopens with the session.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tau_agent.content import TextContent, ToolCall, text_of
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import CustomEntry, SessionEntry
from tau_agent.wire import WireError, message_from_dict, message_to_dict, usage_to_dict
from tau_coding.subagents.child import ChildOutcome

ENTRY_TYPE = "tau.subagent"
LIVE_LINES = 40
_LINE = 160


def entry_data(
    outcome: ChildOutcome, *, tool_call_id: str, agent: str, description: str, model: str, depth: int
) -> dict[str, Any]:
    """The ``tau.subagent`` entry's data for a finished child."""
    return {
        "toolCallId": tool_call_id,
        "agent": agent,
        "description": description,
        "model": model,
        "depth": depth,
        "messages": [message_to_dict(m) for m in outcome.messages],
        "usage": usage_to_dict(outcome.usage),
        "error": outcome.error,
    }


def entry_messages(data: Any) -> list[AgentMessage]:
    """The child's messages from an entry's data; what cannot be read is left out."""
    raw = data.get("messages") if isinstance(data, Mapping) else None
    out: list[AgentMessage] = []
    for item in raw if isinstance(raw, list) else ():
        try:
            out.append(message_from_dict(item))
        except (WireError, TypeError, ValueError, KeyError):
            continue
    return out


def subagent_entries(entries: Iterable[SessionEntry]) -> list[CustomEntry]:
    """Every child transcript in ``entries``, in file order."""
    return [e for e in entries if isinstance(e, CustomEntry) and e.custom_type == ENTRY_TYPE]


def _clip(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _LINE else line[: _LINE - 1] + "…"


def _call_line(call: ToolCall) -> str:
    args = call.arguments
    first = next((v for v in args.values() if isinstance(v, str)), "") if isinstance(args, dict) else ""
    return _clip(f"→ {call.name} {first}".rstrip())


def transcript_lines(messages: Sequence[AgentMessage]) -> list[str]:
    """A child's record as short lines: its replies' text, each tool call and how it ended."""
    lines: list[str] = []
    for message in messages:
        if isinstance(message, UserMessage):
            lines.append(_clip("task: " + text_of(message.content)))
        elif isinstance(message, AssistantMessage):
            text = "".join(b.text for b in message.content if isinstance(b, TextContent)).strip()
            if text:
                lines.append(_clip(text))
            lines.extend(_call_line(call) for call in message.tool_calls)
            if message.stop_reason in ("error", "aborted"):
                lines.append(_clip(f"✗ {message.error_message or message.stop_reason}"))
        elif isinstance(message, ToolResultMessage) and message.is_error:
            lines.append(_clip(f"  ✗ {message.tool_name}: {text_of(message.content)}"))
    return lines


def live_text(agent: str, messages: Sequence[AgentMessage]) -> str:
    """What a running task row shows: the agent and the last lines of its transcript."""
    lines = transcript_lines(messages)
    shown = lines[-LIVE_LINES:]
    skipped = len(lines) - len(shown)
    head = [f"[{agent}] running"] + ([f"… {skipped} earlier lines"] if skipped else [])
    return "\n".join(head + shown)
