"""Amazon Bedrock ConverseStream events -> canonical events.

Events arrive as event stream messages (``tau_ai.eventstream``), named by type:
``messageStart``; ``contentBlockStart`` (only tool calls announce themselves: ``toolUse`` with
its id and name); ``contentBlockDelta`` with ``text``, ``toolUse.input`` (argument JSON in
pieces), or ``reasoningContent`` (``text``, then a ``signature`` that becomes the block's, or
``redactedContent``); ``contentBlockStop``; ``messageStop`` with the stop reason; ``metadata``
with the usage, last. An exception message (throttling, validation, model stream error...) or
a framing error ends the reply with the provider's words, prefixed as Pi prefixes them
("Throttling error: ..."), so retry and overflow rules read them.
"""

from __future__ import annotations

from typing import Any

from tau_agent.messages import StopReason
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.apis._parser_base import BuilderParser
from tau_ai.apis._shared import as_dict, as_int, load_object, make_usage, message_in, one_line, string
from tau_ai.model import Model
from tau_ai.sse import SseEvent

API = "bedrock-converse-stream"
_STOP: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "toolUse",
}
_PREFIXES = {
    "internalServerException": "Internal server error",
    "modelStreamErrorException": "Model stream error",
    "validationException": "Validation error",
    "throttlingException": "Throttling error",
    "serviceUnavailableException": "Service unavailable",
}


def exception_text(name: str, payload: str) -> str:
    """``Throttling error: <message>`` for an exception message of type ``name``."""
    data = load_object(payload)
    detail = message_in(data) if data is not None else payload
    prefix = _PREFIXES.get(name) or (name[:1].upper() + name[1:])
    return one_line(f"{prefix}: {detail}" if detail else prefix)


class BedrockParser(BuilderParser):
    def __init__(self, model: Model, api: str = API) -> None:
        super().__init__(api, model)
        self._open: int | None = None  # the Bedrock index of the open block

    def _feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        if event.id == "exception":
            return self.builder.fail("error", exception_text(event.event, event.data))
        if event.id == "error":
            return self.builder.fail("error", one_line(f"{event.event}: {event.data}"))
        data = load_object(event.data)
        if data is None:
            return self.builder.fail("error", f"malformed event from provider: {one_line(event.data, 200)}")
        kind, b = event.event, self.builder
        if kind == "contentBlockDelta":
            index, delta = data.get("contentBlockIndex"), data.get("delta")
            if type(delta) is dict and type(index) is int and index == self._open:
                text = delta.get("text")
                if type(text) is str:  # more text in the open block: nearly every event of a reply
                    return b.text_delta(text)
            return self._delta(as_int(index), as_dict(delta))
        if kind == "contentBlockStart":
            index = as_int(data.get("contentBlockIndex"))
            call = as_dict(as_dict(data.get("start")).get("toolUse"))
            if not call:
                return []
            self._open = index
            return b.tool_call_start(string(call.get("toolUseId"), ""), string(call.get("name"), ""))
        if kind == "contentBlockStop":
            self._open = None
            return b.close_block()
        if kind == "messageStart":
            return b.start()
        if kind == "messageStop":
            self._stop(string(data.get("stopReason"), "end_turn"))
            self.complete = True
            return []
        if kind == "metadata":
            self._usage(as_dict(data.get("usage")))
            return self.end() if self.complete else []
        return []  # event types added later

    def _delta(self, index: int, delta: dict[str, Any]) -> list[AssistantMessageEvent]:
        b = self.builder
        fresh = self._open != index
        events = b.close_block() if fresh and self._open is not None else []
        self._open = index
        if "text" in delta:
            return events + b.text_delta(string(delta["text"]))
        call = delta.get("toolUse")
        if isinstance(call, dict):
            piece = call.get("input")
            return events + (b.tool_call_delta(piece) if isinstance(piece, str) and piece else [])
        reasoning = as_dict(delta.get("reasoningContent"))
        if "redactedContent" in reasoning:
            return events + b.thinking_delta(
                "", signature=string(reasoning["redactedContent"]), redacted=True
            )
        if "text" in reasoning:
            events += b.thinking_delta(string(reasoning["text"]))
        if "signature" in reasoning:
            if fresh and "text" not in reasoning:  # a signature opening its block: a thinking block
                events += b.thinking_delta("")
            b.set_signature(string(reasoning["signature"]))
        return events

    def _stop(self, reason: str) -> None:
        mapped = _STOP.get(reason)
        if mapped is None and reason in ("guardrail_intervened", "content_filtered"):
            self.stop_reason = "error"
            self.stop_error = f"The reply was blocked by Bedrock ({reason})"
        else:
            self.stop_reason = mapped or "stop"

    def _usage(self, usage: dict[str, Any]) -> None:
        if usage:
            self.builder.message.usage = make_usage(
                input=as_int(usage.get("inputTokens")),
                output=as_int(usage.get("outputTokens")),
                cache_read=as_int(usage.get("cacheReadInputTokens")),
                cache_write=as_int(usage.get("cacheWriteInputTokens")),
            )
