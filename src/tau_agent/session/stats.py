"""Session statistics: messages by role, tool calls, tokens and cost (Pi's ``get_session_stats``).

Counted over every message entry in the file, on every branch, since each one was paid for.
A tool that spends on models of its own (a subagent) says so in its result's ``details``
(``{"usage": {...}}`` in the session file's usage format, ``tool_result_usage``); that usage
is added once, from the result. Pure; decodes each message once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tau_agent.content import ToolCall
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, Usage
from tau_agent.session.entries import MessageEntry, SessionEntry
from tau_agent.wire import WireError, usage_from_dict


@dataclass(slots=True)
class Spent:
    """Tokens and cost summed over replies (and the model calls of tools that make their own)."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cost: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write

    def add(self, usage: Usage) -> None:
        self.input += usage.input
        self.output += usage.output
        self.cache_read += usage.cache_read
        self.cache_write += usage.cache_write
        self.cost += usage.cost.total


@dataclass(slots=True)
class SessionStats:
    by_role: Counter[str] = field(default_factory=Counter)
    tool_calls: int = 0
    spent: Spent = field(default_factory=Spent)

    @property
    def total_messages(self) -> int:
        return sum(self.by_role.values())

    def to_dict(self) -> dict[str, Any]:
        """The fields of Pi's RPC ``get_session_stats`` reply that describe the messages."""
        return {
            "userMessages": self.by_role["user"],
            "assistantMessages": self.by_role["assistant"],
            "toolCalls": self.tool_calls,
            "toolResults": self.by_role["toolResult"],
            "totalMessages": self.total_messages,
            "tokens": {
                "input": self.spent.input,
                "output": self.spent.output,
                "cacheRead": self.spent.cache_read,
                "cacheWrite": self.spent.cache_write,
                "total": self.spent.total_tokens,
            },
            "cost": self.spent.cost,
        }


def tool_result_usage(details: Any) -> Usage | None:
    """What a tool spent on models, from its result's ``details`` (None: nothing, or unreadable)."""
    if not isinstance(details, dict) or not isinstance(details.get("usage"), dict):
        return None
    try:
        return usage_from_dict(details["usage"])
    except WireError:
        return None


def session_stats(entries: Iterable[SessionEntry]) -> SessionStats:
    """One pass, told by exact types (a 100,000-entry session is read in a few tens of ms: an
    RPC client may ask after every turn)."""
    stats = SessionStats()
    add = stats.spent.add
    kinds: dict[type[AgentMessage], int] = {}
    tool_calls = 0
    for entry in entries:
        if type(entry) is not MessageEntry:
            continue
        message = entry.message
        kinds[type(message)] = kinds.get(type(message), 0) + 1
        if type(message) is AssistantMessage:
            add(message.usage)
            for block in message.content:
                if type(block) is ToolCall:
                    tool_calls += 1
        elif type(message) is ToolResultMessage and message.details is not None:
            usage = tool_result_usage(message.details)
            if usage is not None:
                add(usage)
    for kind, count in kinds.items():
        stats.by_role[kind.role] += count
    stats.tool_calls = tool_calls
    return stats


def session_spent(entries: Iterable[SessionEntry]) -> Spent:
    """What ``session_stats`` says was spent, alone: the footer's totals, one quick pass (a
    10,000-entry session is read in a few milliseconds)."""
    spent = Spent()
    add = spent.add
    for entry in entries:
        if type(entry) is MessageEntry:
            message = entry.message
            if type(message) is AssistantMessage:
                add(message.usage)
            elif type(message) is ToolResultMessage and message.details is not None:
                usage = tool_result_usage(message.details)
                if usage is not None:
                    add(usage)
    return spent


__all__ = ["SessionStats", "Spent", "session_spent", "session_stats", "tool_result_usage"]
