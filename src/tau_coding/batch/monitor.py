"""A fold over the JSON event lines ``tau -p --mode json`` prints: turns, tokens, cost, the final
answer, and whether a token or cost limit has been passed (the runner then stops the process).

Only ``turn_end`` and ``message_end`` of assistant messages matter; msgspec decodes just their
few fields and skips the rest of every line, so a streamed token costs the runner a microsecond.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec


class _Cost(msgspec.Struct):
    total: float = 0.0


class _Usage(msgspec.Struct, rename="camel"):
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    total_tokens: int = 0
    cost: _Cost = msgspec.field(default_factory=_Cost)


class _Block(msgspec.Struct):
    type: str = ""
    text: str = ""


class _Message(msgspec.Struct, rename="camel"):
    role: str = ""
    content: list[_Block] | str = msgspec.field(default_factory=list)
    usage: _Usage | None = None
    stop_reason: str | None = None
    error_message: str | None = None


class _Event(msgspec.Struct):
    type: str = ""
    message: _Message | None = None


_decoder = msgspec.json.Decoder(_Event)

STOP_NOTICE = "Agent stopped after max_turns"
"""How the loop's own closing reply (no model call behind it) begins its error message."""


def _is_stop_notice(message: _Message) -> bool:
    return (
        message.stop_reason == "error"
        and not message.content
        and (message.error_message or "").startswith(STOP_NOTICE)
    )


@dataclass(slots=True)
class RunTally:
    """What the event stream said so far. ``tokens_total`` counts every token billed (input,
    output and cache), which is what ``max_tokens`` limits."""

    turns: int = 0
    tokens_input: int = 0
    tokens_output: int = 0
    tokens_total: int = 0
    cost: float = 0.0
    final_text: str = ""
    stop_reason: str | None = None
    error_message: str | None = None
    undecodable: int = 0
    replies: list[int] = field(default_factory=list)  # tokens of each reply, for the rate budget

    def feed(self, line: bytes) -> int:
        """Take one stdout line; returns the tokens this line reported (0 for most lines)."""
        if b'"turn_end"' not in line and b'"message_end"' not in line:
            return 0  # most lines are deltas: not worth decoding
        try:
            event = _decoder.decode(line)
        except msgspec.DecodeError:
            self.undecodable += 1
            return 0
        message = event.message
        if message is None or message.role != "assistant":
            return 0
        if _is_stop_notice(message):  # the loop stopping itself: neither a turn nor a reply
            self.error_message = message.error_message
            self.stop_reason = message.stop_reason
            return 0
        if event.type == "turn_end":
            self.turns += 1
            return 0
        if event.type != "message_end":
            return 0
        usage = message.usage or _Usage()
        total = usage.total_tokens or (usage.input + usage.output + usage.cache_read + usage.cache_write)
        self.tokens_input += usage.input
        self.tokens_output += usage.output
        self.tokens_total += total
        self.cost += usage.cost.total
        self.stop_reason = message.stop_reason
        self.error_message = message.error_message
        content = message.content
        self.final_text = (
            content
            if isinstance(content, str)
            else "".join(block.text for block in content if block.type == "text")
        )
        self.replies.append(total)
        return total

    def over_limit(self, max_tokens: int | None, max_cost: float | None) -> str | None:
        """Why the run must stop now (a limit passed), or None."""
        if max_tokens is not None and self.tokens_total > max_tokens:
            return f"max_tokens {max_tokens} passed ({self.tokens_total} tokens)"
        if max_cost is not None and self.cost > max_cost:
            return f"max_cost {max_cost} passed (${self.cost:.4f})"
        return None
