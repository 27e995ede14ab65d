"""What to say about a finished reply that ended normally yet leaves nothing to act on: pure.

A reply can end without an error and still give the person nothing: empty (some local models
answer a hard prompt with nothing), only reasoning, or cut at the output limit. The
interactive transcript and print mode's stderr both say so in these words, rather than
showing nothing and leaving the person to guess.
"""

from __future__ import annotations

from typing import NamedTuple

from tau_agent.content import ThinkingContent
from tau_agent.messages import AssistantMessage


class ReplyNotice(NamedTuple):
    what: str  # what happened, a sentence without its full stop
    advice: str  # what the person can do in a conversation

    def line(self) -> str:
        """The transcript's line: what happened, then what to do."""
        return f"{self.what}; {self.advice}."


EMPTY = ReplyNotice("The model sent an empty reply", "send a message to ask again")
ONLY_REASONING = ReplyNotice(
    "The model's reply held only reasoning, no answer", "send a message to ask again"
)
CUT = ReplyNotice("The reply hit the output limit", "send 'continue' to get the rest")


def reply_notice(message: AssistantMessage) -> ReplyNotice | None:
    """The notice for ``message``, or None when it needs none: an answer, a tool call (a call
    cut at the limit says so in its own result, and the run goes on), or an error or cancel
    (those have their own words)."""
    if message.tool_calls:
        return None
    if message.stop_reason == "length":
        return CUT
    if message.stop_reason != "stop" or message.text.strip():
        return None
    if any(isinstance(b, ThinkingContent) and b.thinking.strip() for b in message.content):
        return ONLY_REASONING
    return EMPTY
