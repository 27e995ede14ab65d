"""Responses API stream -> canonical events.

Output items stream one after another: a ``reasoning`` item becomes a thinking block (its
summary parts joined by blank lines; the finished item, encrypted content included, becomes
the block's signature for replay); a ``message`` item becomes text (signature: its id and
phase); a ``function_call`` item becomes a tool call with id ``call_id|item_id``.
``response.completed``/``incomplete`` end the reply with usage; ``response.failed`` and
``error`` events end it with the provider's message.
"""

from __future__ import annotations

import json
from typing import Any

from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.apis._parser_base import BuilderParser
from tau_ai.apis._shared import as_dict, as_int, load_object, make_usage, message_in, one_line, string
from tau_ai.model import Model
from tau_ai.sse import SseEvent

API = "openai-responses"


def _reasoning_text(item: dict[str, Any]) -> str:
    """A finished reasoning item's text: its summary parts joined by blank lines (as their deltas
    are), else its raw reasoning text (open-weight models served with the Responses API)."""
    for field in ("summary", "content"):
        parts = item.get(field)
        if isinstance(parts, list):
            texts = [string(as_dict(part).get("text")) for part in parts]
            if any(texts):
                return "\n\n".join(text for text in texts if text)
    return ""


class ResponsesParser(BuilderParser):
    """A Responses stream; its messages name ``api`` (Azure serves the same stream)."""

    def __init__(self, model: Model, api: str = API) -> None:
        super().__init__(api, model)
        self._item_type: str | None = None
        self._args_seen = False
        self._thinking_seen = False  # the reasoning item's text came in deltas

    def _feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        data = load_object(event.data)
        if data is None:
            if not event.data.strip() or event.data == "[DONE]":
                return []
            return self.builder.fail("error", f"malformed event from provider: {one_line(event.data, 200)}")
        kind = data.get("type") or event.event
        b = self.builder
        if kind == "response.output_text.delta" or kind == "response.refusal.delta":
            return b.text_delta(string(data.get("delta")))
        if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            delta = string(data.get("delta"))
            self._thinking_seen = self._thinking_seen or bool(delta)
            return b.thinking_delta(delta)
        if kind == "response.function_call_arguments.delta":
            self._args_seen = True
            return b.tool_call_delta(string(data.get("delta")))
        if kind == "response.created" or kind == "response.in_progress":
            response = as_dict(data.get("response"))
            if b.message.response_id is None and isinstance(response.get("id"), str):
                b.message.response_id = response["id"]
            return b.start()
        if kind == "response.output_item.added":
            return self._item_added(as_dict(data.get("item")))
        if kind == "response.reasoning_summary_part.added":
            if as_int(data.get("summary_index")) > 0:
                return b.thinking_delta("\n\n")
            return b.thinking_delta("")
        if kind == "response.function_call_arguments.done":
            arguments = data.get("arguments")
            if not self._args_seen and isinstance(arguments, str) and arguments:
                self._args_seen = True
                return b.tool_call_delta(arguments)
            return []
        if kind == "response.output_item.done":
            return self._item_done(as_dict(data.get("item")))
        if kind in ("response.completed", "response.incomplete", "response.done"):
            return self._completed(as_dict(data.get("response")))
        if kind == "response.failed":
            response = as_dict(data.get("response"))
            found = message_in(response.get("error")) or message_in(response.get("incomplete_details"))
            return b.fail("error", one_line(found or "Response failed"))
        if kind == "error":
            return b.fail("error", one_line(message_in(data) or event.data))
        return []

    def _item_added(self, item: dict[str, Any]) -> list[AssistantMessageEvent]:
        b = self.builder
        kind = item.get("type")
        self._item_type = kind if isinstance(kind, str) else None
        if kind == "reasoning":
            self._thinking_seen = False
            return b.thinking_delta("")
        if kind == "function_call":
            self._args_seen = False
            call_id = f"{string(item.get('call_id'), '')}|{string(item.get('id'), '')}"
            events = b.tool_call_start(call_id, string(item.get("name"), ""))
            arguments = item.get("arguments")
            if isinstance(arguments, str) and arguments:
                self._args_seen = True
                events += b.tool_call_delta(arguments)
            return events
        if kind == "message":
            return b.close_block()
        return []

    def _item_done(self, item: dict[str, Any]) -> list[AssistantMessageEvent]:
        b = self.builder
        kind = item.get("type")
        events: list[AssistantMessageEvent] = []
        if kind == "reasoning":
            if self._item_type != "reasoning":
                self._thinking_seen = False
                events += b.thinking_delta("")
            if not self._thinking_seen:  # a server that sends the text only with the finished item
                events += b.thinking_delta(_reasoning_text(item))
            b.set_signature(json.dumps(item, separators=(",", ":")))
        elif kind == "message":
            signature: dict[str, Any] = {"id": item.get("id")}
            if isinstance(item.get("phase"), str):
                signature["phase"] = item["phase"]
            b.set_signature(json.dumps(signature, separators=(",", ":")))
        elif kind == "function_call":
            arguments = item.get("arguments")
            if not self._args_seen and isinstance(arguments, str) and arguments:
                self._args_seen = True
                events += b.tool_call_delta(arguments)
        self._item_type = None
        return events + b.close_block()

    def _completed(self, response: dict[str, Any]) -> list[AssistantMessageEvent]:
        b = self.builder
        if b.message.response_id is None and isinstance(response.get("id"), str):
            b.message.response_id = response["id"]
        usage = as_dict(response.get("usage"))
        if usage:
            cached = as_int(as_dict(usage.get("input_tokens_details")).get("cached_tokens"))
            b.message.usage = make_usage(
                input=as_int(usage.get("input_tokens")) - cached,
                output=as_int(usage.get("output_tokens")),
                cache_read=cached,
                reasoning=as_int(as_dict(usage.get("output_tokens_details")).get("reasoning_tokens")),
            )
        self.complete = True
        status = response.get("status")
        if status == "incomplete":
            reason = as_dict(response.get("incomplete_details")).get("reason")
            if reason == "max_output_tokens":
                self.stop_reason = "length"
            else:
                self.stop_reason = "error"
                self.stop_error = f"Response incomplete: {reason or 'unknown reason'}"
        elif status in ("failed", "cancelled"):
            self.stop_reason = "error"
            self.stop_error = one_line(message_in(response.get("error")) or f"Response {status}")
        return self.end()
