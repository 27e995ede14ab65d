"""Anthropic Messages stream -> canonical events.

Blocks arrive one at a time between ``content_block_start`` and ``content_block_stop``:
``text``; ``thinking`` (its ``signature_delta`` comes last and becomes the block's signature);
``redacted_thinking`` (no deltas, its opaque ``data`` is the signature); ``tool_use`` (its
``input_json_delta`` pieces are the arguments; none, or only empty ones, mean ``{}``). Usage
is split: ``message_start`` has the input side, ``message_delta`` the output (and, on newer
API versions, final input counts). ``message_stop`` ends the reply; an ``error`` event inside
the HTTP-200 stream (overloaded, ...) ends it with the provider's message.
"""

from __future__ import annotations

import json
from typing import Any

from tau_agent.messages import StopReason
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.apis._parser_base import BuilderParser
from tau_ai.apis._shared import as_dict, as_int, load_object, make_usage, message_in, one_line, string
from tau_ai.model import Model
from tau_ai.sse import SseEvent

API = "anthropic-messages"
_STOP: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "toolUse",
}


class AnthropicParser(BuilderParser):
    def __init__(self, model: Model, api: str = API) -> None:
        super().__init__(api, model)
        self._usage: dict[str, int] = {}

    def _feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        data = load_object(event.data)
        if data is None:
            return self.builder.fail("error", f"malformed event from provider: {one_line(event.data, 200)}")
        kind = data.get("type") or event.event
        b = self.builder
        if kind == "content_block_delta":
            delta = as_dict(data.get("delta"))
            dtype = delta.get("type")
            if dtype == "text_delta":
                return b.text_delta(string(delta.get("text")))
            if dtype == "thinking_delta":
                return b.thinking_delta(string(delta.get("thinking")))
            if dtype == "input_json_delta":
                piece = delta.get("partial_json")
                return b.tool_call_delta(piece) if isinstance(piece, str) and piece else []
            if dtype == "signature_delta":
                b.set_signature(string(delta.get("signature")))
            return []
        if kind == "content_block_start":
            return self._block_start(as_dict(data.get("content_block")))
        if kind == "content_block_stop":
            return b.close_block()
        if kind == "message_start":
            message = as_dict(data.get("message"))
            if isinstance(message.get("id"), str):
                b.message.response_id = message["id"]
            self._add_usage(as_dict(message.get("usage")))
            return b.start()
        if kind == "message_delta":
            reason = as_dict(data.get("delta")).get("stop_reason")
            if isinstance(reason, str):
                self._stop(reason)
            self._add_usage(as_dict(data.get("usage")))
            return []
        if kind == "message_stop":
            self.complete = True
            return self.end()
        if kind == "error":
            return b.fail("error", one_line(message_in(data) or event.data))
        return []  # ping and event types added later

    def _block_start(self, block: dict[str, Any]) -> list[AssistantMessageEvent]:
        b = self.builder
        kind = block.get("type")
        if kind == "text":
            return b.text_delta(string(block.get("text"), ""))
        if kind == "thinking":
            return b.thinking_delta(string(block.get("thinking"), ""))
        if kind == "redacted_thinking":
            return b.thinking_delta("", signature=string(block.get("data"), ""), redacted=True)
        if kind == "tool_use":
            events = b.tool_call_start(string(block.get("id"), ""), string(block.get("name"), ""))
            preset = block.get("input")
            if isinstance(preset, dict) and preset:
                events += b.tool_call_delta(json.dumps(preset))
            return events
        return b.close_block()

    def _stop(self, reason: str) -> None:
        mapped = _STOP.get(reason)
        if mapped is None and reason == "refusal":
            self.stop_reason, self.stop_error = "error", "The model declined to answer (refusal)"
        else:
            self.stop_reason = mapped or "stop"

    def _add_usage(self, usage: dict[str, Any]) -> None:
        for key in (
            "input_tokens",
            "output_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
        ):
            if key in usage and usage[key] is not None:
                self._usage[key] = as_int(usage[key])
        u = self._usage
        self.builder.message.usage = make_usage(
            input=u.get("input_tokens", 0),
            output=u.get("output_tokens", 0),
            cache_read=u.get("cache_read_input_tokens", 0),
            cache_write=u.get("cache_creation_input_tokens", 0),
        )
