"""A toy wire API for testing and benchmarking the shared HTTP half without a real provider.

The format is one JSON object per SSE ``data`` line, with a short type tag ``t``:

    {"t": "text", "d": "Hel"}                    visible text
    {"t": "think", "d": "hmm", "sig": "s1"}      reasoning (``sig`` optional)
    {"t": "tool", "id": "c1", "name": "read"}    a tool call starts
    {"t": "args", "d": "{\\"path\\": "}          a piece of the open call's JSON arguments
    {"t": "usage", "in": 10, "out": 3, "cr": 0, "cw": 0}
    {"t": "end", "reason": "stop"}               the stream is complete (stop|length|toolUse)
    {"t": "error", "message": "overloaded"}      the server failed mid-stream

A body that ends before ``end`` is "cut short". A ``data`` line that is not JSON makes
``feed`` raise ``ValueError``, as a careless parser would; the HTTP half must cope. Error
bodies are ``{"error": {"message": "..."}}``. ``toy_sse`` renders events in this format.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from tau_agent.assistant_builder import AssistantMessageBuilder
from tau_agent.content import text_of
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.model import Model
from tau_ai.sse import SseEvent
from tau_ai.wire_api import HttpRequestSpec, WireApi

TOY_API = "toy-json-events"


class ToyParser:
    """Turns toy SSE events into canonical events through an AssistantMessageBuilder."""

    __slots__ = ("_builder",)

    def __init__(self, model: Model) -> None:
        self._builder = AssistantMessageBuilder(api=model.api, provider=model.provider, model=model.id)

    @property
    def has_content(self) -> bool:
        return self._builder.has_content

    @property
    def ended(self) -> bool:
        return self._builder.ended

    def feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        if self._builder.ended:
            return []
        item = json.loads(event.data)
        kind = item["t"]
        b = self._builder
        if kind == "text":
            return b.text_delta(item["d"])
        if kind == "think":
            return b.thinking_delta(item["d"], signature=item.get("sig"))
        if kind == "tool":
            return b.tool_call_start(item["id"], item["name"])
        if kind == "args":
            return b.tool_call_delta(item["d"])
        if kind == "usage":
            usage = b.message.usage
            usage.input, usage.output = int(item.get("in", 0)), int(item.get("out", 0))
            usage.cache_read, usage.cache_write = int(item.get("cr", 0)), int(item.get("cw", 0))
            usage.total_tokens = usage.input + usage.output + usage.cache_read + usage.cache_write
            return []
        if kind == "end":
            return b.finish(item.get("reason"))
        if kind == "error":
            return b.fail("error", str(item.get("message", "error")))
        return []

    def finish(self) -> list[AssistantMessageEvent]:
        if self._builder.ended:
            return []
        return self._builder.fail("error", "Stream ended unexpectedly before its end marker")

    def fail(self, reason: str, error_message: str) -> list[AssistantMessageEvent]:
        return self._builder.fail("aborted" if reason == "aborted" else "error", error_message)


def _build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    messages: list[dict[str, Any]] = []
    for message in context.messages:
        if message.role == "user":
            content = message.content
            text = text_of(content)
            messages.append({"role": "user", "text": text})
        elif message.role == "assistant":
            messages.append({"role": "assistant", "text": message.text})
        else:
            messages.append({"role": "tool", "id": message.tool_call_id})
    headers = {"content-type": "application/json", "accept": "text/event-stream"}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    body = {"model": model.id, "system": context.system_prompt, "messages": messages}
    return HttpRequestSpec(url=model.base_url.rstrip("/") + "/toy/stream", headers=headers, body=body)


def _error_message(status: int, body: bytes) -> str:
    text = body.decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except ValueError:
        return " ".join(text.split())[:300]
    if isinstance(data, Mapping) and isinstance(data.get("error"), Mapping):
        message = data["error"].get("message")
        if isinstance(message, str):
            return " ".join(message.split())[:300]
    return " ".join(text.split())[:300]


TOY_WIRE = WireApi(
    name=TOY_API, build_request=_build_request, new_parser=ToyParser, error_message=_error_message
)


def toy_model(base_url: str, **fields: Any) -> Model:
    """A Model on the toy API at ``base_url`` (a replay server's URL)."""
    return Model(id=fields.pop("id", "toy-1"), api=TOY_API, provider="toy", base_url=base_url, **fields)


ToyKind = Literal["text", "think", "tool", "args", "usage", "end", "error"]


def toy_sse(events: Iterable[Mapping[str, Any]], *, crlf: bool = False) -> bytes:
    """Render toy events as an SSE body (``crlf`` frames lines the way Gemini does)."""
    newline = "\r\n" if crlf else "\n"
    out = [f"data: {json.dumps(dict(event), separators=(',', ':'))}{newline}{newline}" for event in events]
    return "".join(out).encode("utf-8")


def toy_text_stream(pieces: Iterable[str], reason: str = "stop") -> bytes:
    """A complete toy stream: one text event per piece, then the end marker."""
    events: list[dict[str, Any]] = [{"t": "text", "d": piece} for piece in pieces]
    events.append({"t": "end", "reason": reason})
    return toy_sse(events)
