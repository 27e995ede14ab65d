"""How full the context window is: provider-reported usage, plus an estimate for what came after.

The last successful reply's usage counts every token the provider saw up to and including
that reply, so it is exact; only messages after it are estimated (characters / 4, a fixed
cost per image). A reply older than the latest compaction reports a context that no longer
exists, so its usage is never used. With no usable reply at all, everything is estimated:
system prompt, tool schemas and every message. Pure.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
    Usage,
    UserMessage,
    bash_execution_text,
)
from tau_agent.tools import ToolSpec

CHARS_PER_TOKEN = 4
IMAGE_TOKENS = 1200  # a typical screenshot; providers bill 500-1600 depending on size
MESSAGE_OVERHEAD = 4  # role markers and separators a provider adds per message


@dataclass(frozen=True, slots=True)
class ContextUsage:
    """Tokens the next request will carry (``tokens``), the model's window, and tokens/window in %.

    ``estimated`` is how many of ``tokens`` were guessed rather than reported by the provider.
    """

    tokens: int
    window: int
    estimated: int = 0

    @property
    def percent(self) -> float:
        return 100.0 * self.tokens / self.window if self.window > 0 else 0.0


def _chars(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def _content_tokens(content: str | Sequence[object]) -> int:
    if isinstance(content, str):
        return _chars(content)
    total = 0
    for block in content:
        if isinstance(block, TextContent):
            total += _chars(block.text)
        elif isinstance(block, ImageContent):
            total += IMAGE_TOKENS
        elif isinstance(block, ThinkingContent):
            total += _chars(block.thinking)
        elif isinstance(block, ToolCall):
            total += _chars(block.name) + _chars(json.dumps(block.arguments, ensure_ascii=False))
    return total


def estimate_message_tokens(message: AgentMessage) -> int:
    """A rough token count for one message, as the model would see it."""
    if isinstance(message, UserMessage | AssistantMessage | ToolResultMessage | CustomMessage):
        return MESSAGE_OVERHEAD + _content_tokens(message.content)
    if isinstance(message, BashExecutionMessage):
        return 0 if message.exclude_from_context else MESSAGE_OVERHEAD + _chars(bash_execution_text(message))
    assert isinstance(message, CompactionSummaryMessage | BranchSummaryMessage)
    return MESSAGE_OVERHEAD + 40 + _chars(message.summary)  # 40: the fixed framing text


def estimate_fixed_tokens(system_prompt: str, tools: Sequence[ToolSpec]) -> int:
    """The system prompt and tool schemas, sent once per request."""
    total = _chars(system_prompt)
    for tool in tools:
        total += _chars(tool.name) + _chars(tool.description) + _chars(json.dumps(tool.parameters))
    return total


def usage_tokens(usage: Usage) -> int:
    """Everything a reply's usage says the request and reply held."""
    summed = usage.input + usage.output + usage.cache_read + usage.cache_write
    return usage.total_tokens or summed


def last_usage_index(messages: Sequence[AgentMessage], trust_from: int = 0) -> int:
    """Index of the last successful reply with usage after the latest compaction summary, or -1.

    Replies before index ``trust_from`` are never used (a caller that compacted knows exactly
    where the kept messages end); replies older than the summary's timestamp neither.
    """
    # A replayed transcript holds at most one summary, first (earlier ones are folded into
    # it), so looking at the head keeps this O(messages since the last reply), not O(record).
    head = messages[0] if messages else None
    compacted_at = head.timestamp if isinstance(head, CompactionSummaryMessage) else None
    for index in range(len(messages) - 1, max(trust_from, 0) - 1, -1):
        message = messages[index]
        if isinstance(message, CompactionSummaryMessage):
            return -1
        if (
            isinstance(message, AssistantMessage)
            and message.stop_reason not in ("error", "aborted")
            and usage_tokens(message.usage) > 0
            and (compacted_at is None or message.timestamp > compacted_at)
        ):
            return index
    return -1


class TokenTally:
    """Estimates and the usage anchor of a transcript that only grows, kept in O(new messages).

    So a long session does not re-read every message before every request (notably when no
    reply reports usage, as with some local servers). A different or shorter list starts over.
    The estimate of the whole list is made only when asked for: with a usage anchor, only the
    messages after it are estimated.
    """

    def __init__(self) -> None:
        self._messages: Sequence[AgentMessage] | None = None
        self._count = 0  # messages scanned for the anchor
        self._estimated = 0  # messages whose estimate is in _total
        self._total = 0
        self._usable = -1  # last successful reply with usage
        self._summary = -1  # last compaction summary

    def _advance(self, messages: Sequence[AgentMessage]) -> None:
        if messages is not self._messages or len(messages) < self._count:
            # Starting over (a caller's copy of the record, say): look back from the end only
            # as far as the latest usable reply, which a resumed long session has near its end.
            self._messages, self._count, self._estimated, self._total = messages, len(messages), 0, 0
            self._usable, self._summary = _latest_marks(messages)
            return
        for index in range(self._count, len(messages)):
            message = messages[index]
            kind = type(message)
            if kind is UserMessage or kind is ToolResultMessage:
                continue  # most of a long record, and neither kind can be what is looked for
            if isinstance(message, CompactionSummaryMessage):
                self._summary = index
            elif (
                isinstance(message, AssistantMessage)
                and message.stop_reason not in ("error", "aborted")
                and usage_tokens(message.usage) > 0
            ):
                self._usable = index
        self._count = len(messages)

    def total(self, messages: Sequence[AgentMessage]) -> int:
        self._advance(messages)
        for index in range(self._estimated, len(messages)):
            self._total += estimate_message_tokens(messages[index])
        self._estimated = len(messages)
        return self._total

    def anchor(self, messages: Sequence[AgentMessage], trust_from: int = 0) -> int:
        """What ``last_usage_index`` answers, without scanning back through the record."""
        self._advance(messages)
        index = self._usable
        if index < max(trust_from, 0) or index < self._summary:
            return -1
        head = messages[0]
        if isinstance(head, CompactionSummaryMessage) and messages[index].timestamp <= head.timestamp:
            return -1
        return index


def _latest_marks(messages: Sequence[AgentMessage]) -> tuple[int, int]:
    """The latest successful reply with usage, and the latest summary after it (-1 for none):
    what ``TokenTally`` needs of a scan, which a summary before that reply cannot change."""
    summary = -1
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        kind = type(message)
        if kind is UserMessage or kind is ToolResultMessage:
            continue
        if isinstance(message, CompactionSummaryMessage):
            summary = max(summary, index)
        elif (
            isinstance(message, AssistantMessage)
            and message.stop_reason not in ("error", "aborted")
            and usage_tokens(message.usage) > 0
        ):
            return index, summary
    return -1, summary


def context_usage(
    messages: Sequence[AgentMessage],
    window: int,
    *,
    system_prompt: str = "",
    tools: Sequence[ToolSpec] = (),
    trust_from: int = 0,
    tally: TokenTally | None = None,
) -> ContextUsage:
    """What the next request will weigh, calibrated by the latest trustworthy usage."""
    anchor = (
        tally.anchor(messages, trust_from) if tally is not None else last_usage_index(messages, trust_from)
    )
    if anchor >= 0:
        reply = messages[anchor]
        assert isinstance(reply, AssistantMessage)
        reported = usage_tokens(reply.usage)
        tail = sum(estimate_message_tokens(m) for m in messages[anchor + 1 :])
        return ContextUsage(reported + tail, window, tail)
    estimated = (
        tally.total(messages) if tally is not None else sum(estimate_message_tokens(m) for m in messages)
    )
    guessed = estimate_fixed_tokens(system_prompt, tools) + estimated
    return ContextUsage(guessed, window, guessed)


__all__ = [
    "ContextUsage",
    "TokenTally",
    "context_usage",
    "estimate_fixed_tokens",
    "estimate_message_tokens",
    "last_usage_index",
    "usage_tokens",
]
