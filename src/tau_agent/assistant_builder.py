"""Build one assistant message from a stream, emitting canonical AssistantMessageEvents.

Provider adapters and fakes drive an ``AssistantMessageBuilder`` with what arrives (a text
piece, a tool call's JSON piece, the end); it keeps the partial message current in O(1) per
delta and hands back the events to yield. It owns the rules every stream shares: blocks open
and close in pairs, a new kind of block closes the open one, a stream ends exactly once, and
a failure keeps what arrived.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, Literal

from tau_agent.content import TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, StopReason
from tau_agent.partial_json import parse_partial_json
from tau_agent.stream_events import (
    AssistantMessageEvent,
    DoneEvent,
    ErrorEvent,
    StartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)

_MIN_REPARSE = 256
_SHOWN_RAW = 500  # characters of invalid arguments quoted back to the model


class _ArgsBuffer:
    """Streamed tool-call JSON. Re-parsed when it has grown by an eighth since the last parse,
    so the arguments stay nearly current while total parsing work stays linear in their size."""

    __slots__ = ("next_parse_at", "parts", "size")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.next_parse_at = 0

    def add(self, delta: str) -> bool:
        self.parts.append(delta)
        self.size += len(delta)
        if self.size < self.next_parse_at:
            return False
        self.next_parse_at = self.size + max(_MIN_REPARSE, self.size // 8)
        return True

    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""


def final_arguments(raw: str) -> tuple[dict[str, Any], str | None]:
    """A finished call's arguments from their JSON text, and what was wrong with it (None when
    nothing was). A JSON string holding an object (some servers encode twice) is unwrapped and
    ``null`` is no arguments; anything else that is not an object is an error, with the best
    object that could be salvaged for display: running a repaired guess could act on half a
    command."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        reason = str(exc) if isinstance(exc, ValueError) else "nested too deeply"
        return parse_partial_json(raw), _arguments_problem(f"not valid JSON ({reason})", raw)
    if isinstance(value, str):
        with contextlib.suppress(ValueError, RecursionError):
            value = json.loads(value)
    if isinstance(value, dict):
        return value, None
    if value is None:
        return {}, None
    return {}, _arguments_problem(f"not a JSON object but {type(value).__name__}", raw)


def _arguments_problem(what: str, raw: str) -> str:
    shown = (
        raw if len(raw) <= _SHOWN_RAW else raw[:_SHOWN_RAW] + f"… ({len(raw) - _SHOWN_RAW:,} more characters)"
    )
    return f"Tool call not run: its arguments are {what}. Send the call again with a JSON object. Received:\n{shown}"


class AssistantMessageBuilder:
    """The partial message of one stream, and the events that describe its growth."""

    def __init__(self, *, api: str = "", provider: str = "", model: str = "") -> None:
        self.message = AssistantMessage(api=api, provider=provider, model=model)
        self._open: TextContent | ThinkingContent | ToolCall | None = None
        self._args: _ArgsBuffer | None = None
        # Read, never set, from outside: plain attributes rather than properties because a
        # parser asks on every streamed delta.
        self.started = False  # the start event was made
        self.ended = False  # done or error was made; nothing follows

    @property
    def has_content(self) -> bool:
        return bool(self.message.content)

    def start(self) -> list[AssistantMessageEvent]:
        """Announce the message. Idempotent: later calls return no events."""
        if self.started:
            return []
        self.started = True
        return [StartEvent(self.message)]

    # -- text and thinking ------------------------------------------------------------------

    def text_delta(self, delta: str, *, signature: str | None = None) -> list[AssistantMessageEvent]:
        """Append visible text, opening a text block (and closing another kind) as needed."""
        block = self._open
        if type(block) is TextContent and signature is None and delta:  # more of the open block
            block.append(delta)
            return [TextDeltaEvent(len(self.message.content) - 1, delta, self.message)]
        events = self.start() if not self.started else []
        if not isinstance(block, TextContent):
            events += self.close_block()
            block = TextContent()
            self.message.content.append(block)
            self._open = block
            events.append(TextStartEvent(len(self.message.content) - 1, self.message))
        if signature is not None:
            block.text_signature = signature
        block.append(delta)
        if delta:
            events.append(TextDeltaEvent(len(self.message.content) - 1, delta, self.message))
        return events

    def thinking_delta(
        self, delta: str, *, signature: str | None = None, redacted: bool = False
    ) -> list[AssistantMessageEvent]:
        """Append reasoning, opening a thinking block (and closing another kind) as needed."""
        block = self._open
        if type(block) is ThinkingContent and signature is None and delta and redacted == block.redacted:
            block.append(delta)  # more of the open block
            return [ThinkingDeltaEvent(len(self.message.content) - 1, delta, self.message)]
        events = self.start() if not self.started else []
        if not isinstance(block, ThinkingContent) or redacted != block.redacted:
            events += self.close_block()
            block = ThinkingContent(redacted=redacted)
            self.message.content.append(block)
            self._open = block
            events.append(ThinkingStartEvent(len(self.message.content) - 1, self.message))
        if signature is not None:
            block.thinking_signature = (block.thinking_signature or "") + signature
        block.append(delta)
        if delta:
            events.append(ThinkingDeltaEvent(len(self.message.content) - 1, delta, self.message))
        return events

    def set_signature(self, signature: str) -> None:
        """Attach a signature to the open text or thinking block (Anthropic sends it last)."""
        block = self._open
        if isinstance(block, ThinkingContent):
            block.thinking_signature = (block.thinking_signature or "") + signature
        elif isinstance(block, TextContent):
            block.text_signature = signature

    # -- tool calls ---------------------------------------------------------------------------

    def tool_call_start(
        self, call_id: str, name: str, *, thought_signature: str | None = None
    ) -> list[AssistantMessageEvent]:
        events = self.start() if not self.started else []
        events += self.close_block()
        call_id = self._unique_call_id(call_id)
        call = ToolCall(id=call_id, name=name, thought_signature=thought_signature)
        self.message.content.append(call)
        self._open = call
        self._args = _ArgsBuffer()
        events.append(ToolCallStartEvent(len(self.message.content) - 1, self.message))
        return events

    def _unique_call_id(self, call_id: str) -> str:
        """``call_id``, or a new id when it is empty or an earlier call of this reply has it.

        Small local models repeat ids (or send none); every result is matched to its call by
        id, and providers refuse a conversation where two calls share one, so each call of a
        message gets its own."""
        taken = {b.id for b in self.message.content if isinstance(b, ToolCall)}
        if call_id and call_id not in taken:
            return call_id
        index = len(taken)
        base = call_id or "call"
        while f"{base}_{index}" in taken:
            index += 1
        return f"{base}_{index}"

    def tool_call_delta(self, json_piece: str) -> list[AssistantMessageEvent]:
        """Append raw argument JSON to the open tool call; its arguments follow, re-parsed as it grows."""
        call, args = self._open, self._args
        if not isinstance(call, ToolCall) or args is None:
            return []
        if args.add(json_piece):
            call.arguments = parse_partial_json(args.text())
        return [ToolCallDeltaEvent(len(self.message.content) - 1, json_piece, self.message)]

    def tool_call(
        self,
        call_id: str,
        name: str,
        arguments: dict[str, Any],
        *,
        thought_signature: str | None = None,
    ) -> list[AssistantMessageEvent]:
        """A tool call that arrives whole (Google, Mistral): start, one delta, end."""
        events = self.tool_call_start(call_id, name, thought_signature=thought_signature)
        events += self.tool_call_delta(json.dumps(arguments))
        call = self._open
        assert isinstance(call, ToolCall)
        call.arguments = dict(arguments)
        return events + self.close_block()

    # -- ends ---------------------------------------------------------------------------------

    def close_block(self) -> list[AssistantMessageEvent]:
        """Close the open block, if any, with its end event."""
        block = self._open
        if block is None:
            return []
        self._open = None
        index = len(self.message.content) - 1
        if isinstance(block, TextContent):
            return [TextEndEvent(index, block, self.message)]
        if isinstance(block, ThinkingContent):
            return [ThinkingEndEvent(index, block, self.message)]
        args, self._args = self._args, None
        if args is not None and args.size:
            block.arguments, block.arguments_error = final_arguments(args.text())
        return [ToolCallEndEvent(index, block, self.message)]

    def finish(self, reason: StopReason | None = None) -> list[AssistantMessageEvent]:
        """End the stream successfully. ``reason`` defaults to toolUse when a tool was called."""
        if self.ended:
            return []
        if reason in ("error", "aborted"):
            return self.fail(reason, self.message.error_message or "Provider reported an error")
        events = self.start() + self.close_block()
        if reason is None or (reason == "stop" and self.message.tool_calls):
            reason = "toolUse" if self.message.tool_calls else "stop"
        self.message.stop_reason = reason
        self.ended = True
        assert reason in ("stop", "length", "toolUse")
        events.append(DoneEvent(reason, self.message))
        return events

    def fail(self, reason: StopReason, error_message: str) -> list[AssistantMessageEvent]:
        """End the stream as failed (``error``) or cancelled (``aborted``), keeping what arrived."""
        if self.ended:
            return []
        events = self.start() + self.close_block()
        final_reason: Literal["error", "aborted"] = "aborted" if reason == "aborted" else "error"
        self.message.stop_reason = final_reason
        self.message.error_message = error_message
        self.ended = True
        events.append(ErrorEvent(final_reason, self.message))
        return events
