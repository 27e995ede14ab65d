"""HttpProvider's ``on_response``: told each answer's status and headers before its body is read."""

from __future__ import annotations

import json
from collections.abc import Mapping

from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import DoneEvent, TextDeltaEvent
from tau_ai.http_provider import HttpProvider
from tau_ai.retry import RetryPolicy
from tau_ai.testing.replay_server import SSE_HEADERS, ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream

FAST = RetryPolicy(max_retries=3, base_delay=0.001, max_delay=0.01)


async def test_every_attempt_is_told_before_its_body_with_lower_case_header_names() -> None:
    told: list[tuple[int, dict[str, str]]] = []
    order: list[str] = []

    async def answered(status: int, headers: Mapping[str, str]) -> None:
        told.append((status, dict(headers)))
        order.append(f"response {status}")

    refused = Scripted(
        429,
        {"Content-Type": "application/json", "Retry-After": "0"},
        json.dumps({"error": {"message": "slow down"}}).encode(),
    )
    fine = Scripted(200, {**SSE_HEADERS, "X-Request-Id": "req-7"}, toy_text_stream(["Hi", " there"]))
    async with ReplayServer([refused, fine]) as server:
        provider = HttpProvider(
            toy_model(server.url), TOY_WIRE, api_key="k", retry=FAST, on_response=answered
        )
        context = Context("be brief", [UserMessage("hi")])
        async for event in provider.stream(context, StreamOptions()):
            if isinstance(event, TextDeltaEvent | DoneEvent):
                order.append(event.type)
        await provider.aclose()
    assert [status for status, _ in told] == [429, 200]
    assert told[0][1]["retry-after"] == "0" and told[1][1]["x-request-id"] == "req-7"
    assert order[:2] == ["response 429", "response 200"] and order[-1] == "done"
