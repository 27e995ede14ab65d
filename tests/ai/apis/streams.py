"""Run a hand-written SSE body through an API's parser (for behaviour the recordings lack)."""

from __future__ import annotations

import json
from typing import Any

from tau_agent.messages import AssistantMessage
from tau_agent.stream_events import AssistantMessageEvent, DoneEvent, ErrorEvent
from tau_ai.apis import wire_api
from tau_ai.model import Model
from tau_ai.sse import SseDecoder


def model_for(api: str, **changes: Any) -> Model:
    fields: dict[str, Any] = {
        "id": "test-model",
        "api": api,
        "provider": "test",
        "base_url": "http://127.0.0.1",
    }
    fields.update(changes)
    return Model(**fields)


def sse(*items: Any, event: str | None = None) -> str:
    """SSE text: dicts become ``data: <json>`` events, strings are sent as they are."""
    out = []
    for item in items:
        data = item if isinstance(item, str) else json.dumps(item)
        prefix = f"event: {event}\n" if event else ""
        out.append(f"{prefix}data: {data}\n\n")
    return "".join(out)


def run(api: str, body: str, *, finish: bool = True) -> tuple[list[AssistantMessageEvent], AssistantMessage]:
    """Events and the final message; with ``finish=False`` the body must end the message itself."""
    parser = wire_api(api).new_parser(model_for(api))
    decoder = SseDecoder()
    events: list[AssistantMessageEvent] = []
    for item in decoder.feed(body.encode()) + decoder.flush():
        events += parser.feed(item)
    if finish:
        events += parser.finish()
    terminal = [e for e in events if isinstance(e, DoneEvent | ErrorEvent)]
    assert len(terminal) == 1, f"expected exactly one terminal event, got {types(events)}"
    return events, terminal[0].message


def types(events: list[AssistantMessageEvent]) -> list[str]:
    return [e.type for e in events]
