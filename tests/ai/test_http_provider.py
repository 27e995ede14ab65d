"""HttpProvider against a real local HTTP server, with the toy wire API.

Every failure must end the stream with exactly one error event that keeps what arrived; every
retry must be announced and must not show anything twice.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.content import TextContent, ThinkingContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.provider import Context, RetryNotice, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent, DoneEvent, ErrorEvent
from tau_ai.body_encoding import encode_body
from tau_ai.http_provider import HttpProvider, merge_headers
from tau_ai.model import ModelCost
from tau_ai.overflow import is_context_overflow
from tau_ai.retry import RetryPolicy
from tau_ai.testing.replay_server import ReplayServer, Scripted, recorded
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_sse, toy_text_stream

DATA = Path(__file__).resolve().parent.parent / "data" / "providers"
FAST = RetryPolicy(max_retries=3, base_delay=0.001, max_delay=0.01)
JSON = {"content-type": "application/json"}
CONTEXT = Context("be brief", [UserMessage("hi")])


def provider(server: ReplayServer, **kwargs: Any) -> HttpProvider:
    kwargs.setdefault("retry", FAST)
    model_fields = kwargs.pop("model_fields", {})
    return HttpProvider(toy_model(server.url, **model_fields), TOY_WIRE, api_key="sk-test", **kwargs)


async def run(
    p: HttpProvider, options: StreamOptions | None = None, context: Context = CONTEXT
) -> tuple[list[AssistantMessageEvent], list[RetryNotice]]:
    notices: list[RetryNotice] = []
    options = options or StreamOptions()
    if options.on_retry is None:
        options.on_retry = notices.append
    events = [event async for event in p.stream(context, options)]
    await p.aclose()
    return events, notices


def final(events: list[AssistantMessageEvent]) -> AssistantMessage:
    terminal = [e for e in events if isinstance(e, DoneEvent | ErrorEvent)]
    assert len(terminal) == 1, [e.type for e in events]
    assert events[-1] is terminal[0]
    assert sum(e.type == "start" for e in events) == 1
    return terminal[0].message


def error_body(message: str) -> bytes:
    return json.dumps({"error": {"message": message}}).encode()


async def test_streams_text_split_at_every_byte_and_sends_auth() -> None:
    body = toy_text_stream(["Hel", "lo", " wörld"])
    async with ReplayServer(Scripted(body=body, chunk_size=1)) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.text == "Hello wörld" and message.stop_reason == "stop"
    assert [e.type for e in events][:3] == ["start", "text_start", "text_delta"]
    assert server.requests[0].headers["authorization"] == "Bearer sk-test"
    assert server.requests[0].json()["messages"] == [{"role": "user", "text": "hi"}]
    assert notices == []


async def test_429_with_retry_after_waits_the_servers_delay_then_succeeds() -> None:
    script = [
        Scripted(429, {**JSON, "retry-after": "0.2"}, error_body("Rate limit reached")),
        Scripted(body=toy_text_stream(["ok"])),
    ]
    async with ReplayServer(script) as server:
        started = time.monotonic()
        events, notices = await run(provider(server))
        elapsed = time.monotonic() - started
    assert final(events).text == "ok"
    assert notices == [RetryNotice(1, 3, 200, "HTTP 429: Rate limit reached")]
    assert elapsed >= 0.2
    assert len(server.requests) == 2


async def test_retry_after_ms_wins_over_retry_after() -> None:
    script = [
        Scripted(429, {**JSON, "retry-after-ms": "30", "retry-after": "50"}, error_body("slow")),
        Scripted(body=toy_text_stream(["ok"])),
    ]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok"
    assert notices[0].delay_ms == 30


async def test_500_is_retried_until_the_limit_then_reported() -> None:
    policy = RetryPolicy(max_retries=2, base_delay=0.001)
    async with ReplayServer(Scripted(500, JSON, error_body("Internal server error"))) as server:
        events, notices = await run(provider(server, retry=policy))
    message = final(events)
    assert message.stop_reason == "error"
    assert message.error_message == "HTTP 500: Internal server error"
    assert [n.attempt for n in notices] == [1, 2]
    assert len(server.requests) == 3


async def test_retries_switched_off_for_a_request_report_the_first_failure() -> None:
    script = [
        Scripted(500, JSON, error_body("Internal server error")),
        Scripted(body=toy_text_stream(["late"])),
    ]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server), StreamOptions(retry=False))
    assert final(events).error_message == "HTTP 500: Internal server error"
    assert notices == [] and len(server.requests) == 1


async def test_aborting_a_retry_wait_reports_the_failure_at_once() -> None:
    abort = CancellationToken()
    slow = RetryPolicy(max_retries=3, base_delay=30.0, max_delay=30.0, jitter=0.0)
    options = StreamOptions(abort_retry=abort, on_retry=lambda notice: abort.cancel())
    async with ReplayServer(Scripted(500, JSON, error_body("Internal server error"))) as server:
        started = time.monotonic()
        events, _ = await run(provider(server, retry=slow), options)
    assert final(events).error_message == "HTTP 500: Internal server error"
    assert time.monotonic() - started < 10 and len(server.requests) == 1


async def test_529_overloaded_is_retried() -> None:
    overloaded = b'{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'
    script = [Scripted(529, JSON, overloaded), Scripted(body=toy_text_stream(["fine"]))]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "fine"
    assert notices[0].error_message == "HTTP 529: Overloaded"


async def test_x_should_retry_false_forbids_and_true_forces() -> None:
    forbidden = Scripted(503, {**JSON, "x-should-retry": "false"}, error_body("down"))
    async with ReplayServer(forbidden) as server:
        events, notices = await run(provider(server))
    assert final(events).error_message == "HTTP 503: down" and notices == []
    forced = [
        Scripted(400, {**JSON, "x-should-retry": "true"}, error_body("odd")),
        Scripted(body=toy_text_stream(["ok"])),
    ]
    async with ReplayServer(forced) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok" and len(notices) == 1


async def test_server_delay_beyond_the_cap_is_not_waited_for() -> None:
    policy = RetryPolicy(max_retries=3, max_server_delay=5.0)
    async with ReplayServer(Scripted(429, {**JSON, "retry-after": "3600"}, error_body("later"))) as server:
        started = time.monotonic()
        events, notices = await run(provider(server, retry=policy))
    assert time.monotonic() - started < 2.0
    assert final(events).error_message == (
        "HTTP 429: later (the server asked to wait 3600s, longer than retry.provider.maxRetryDelayMs allows)"
    )
    assert notices == [] and len(server.requests) == 1


async def test_connection_cut_before_content_is_retried_without_duplicates() -> None:
    body = toy_text_stream(["one", "two"])
    first_event_end = body.index(b"\n\n") // 2  # mid-way through the first event
    script = [Scripted(body=body, cut_after=first_event_end), Scripted(body=body, chunk_size=5)]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.text == "onetwo"
    assert [e.delta for e in events if e.type == "text_delta"] == ["one", "two"]
    assert len(notices) == 1 and "Connection error" in notices[0].error_message


async def test_connection_cut_after_content_keeps_it_and_does_not_retry() -> None:
    body = toy_text_stream(["one", "two"])
    second = body.index(b"data:", 1)
    async with ReplayServer(Scripted(body=body, cut_after=second + 4)) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.stop_reason == "error"
    assert message.text == "one"
    assert "Connection error" in (message.error_message or "")
    assert notices == [] and len(server.requests) == 1


async def test_stream_ending_cleanly_before_its_end_marker_is_retried_when_empty() -> None:
    cut = toy_sse([{"t": "usage", "in": 1}])  # no content, no end marker
    script = [Scripted(body=cut), Scripted(body=toy_text_stream(["ok"]))]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok" and len(notices) == 1


async def test_stalled_stream_hits_the_idle_timeout_and_keeps_content() -> None:
    body = toy_text_stream(["partial", "never"])
    second = body.index(b"data:", 1)
    async with ReplayServer(Scripted(body=body, stall_after=second)) as server:
        started = time.monotonic()
        events, notices = await run(provider(server, idle_timeout=0.3))
        elapsed = time.monotonic() - started
    message = final(events)
    assert message.text == "partial" and message.stop_reason == "error"
    assert "stalled" in (message.error_message or "")
    assert 0.3 <= elapsed < 3.0
    assert notices == []


async def test_stall_before_any_content_is_retried() -> None:
    script = [Scripted(body=toy_text_stream(["x"]), stall_after=0), Scripted(body=toy_text_stream(["x"]))]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server, idle_timeout=0.2))
    assert final(events).text == "x" and len(notices) == 1


async def test_malformed_json_after_content_ends_with_error_keeping_text() -> None:
    body = toy_sse([{"t": "text", "d": "fine so far"}]) + b"data: {not json\n\n"
    async with ReplayServer(Scripted(body=body)) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.text == "fine so far" and message.stop_reason == "error"
    assert (message.error_message or "").startswith("Malformed data from the provider")
    assert "{not json" in (message.error_message or "")
    assert notices == []


async def test_malformed_json_before_content_is_retried_then_reported() -> None:
    async with ReplayServer(Scripted(body=b"data: [1,\n\n")) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.stop_reason == "error" and message.content == []
    assert (message.error_message or "").startswith("Malformed data from the provider")
    assert len(notices) == 3 and len(server.requests) == 4


async def test_malformed_chunk_before_content_then_a_good_stream_answers() -> None:
    script = [Scripted(body=b"data: {broken\n\n"), Scripted(body=toy_text_stream(["ok"]))]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok" and len(notices) == 1


async def test_status_200_with_an_overloaded_json_body_is_retried() -> None:
    overloaded = json.dumps({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    script = [Scripted(200, JSON, overloaded.encode()), Scripted(body=toy_text_stream(["ok"]))]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok"
    assert len(notices) == 1 and "Overloaded" in notices[0].error_message


async def test_status_200_with_a_json_error_that_is_not_transient_is_reported_at_once() -> None:
    body = error_body("Invalid request: unknown field")
    async with ReplayServer(Scripted(200, JSON, body)) as server:
        events, notices = await run(provider(server))
    assert final(events).error_message == "HTTP 200: Invalid request: unknown field"
    assert notices == [] and len(server.requests) == 1


@pytest.mark.parametrize(
    ("directory", "name", "expected"),
    [
        ("anthropic", "error_401_authentication", "HTTP 401: invalid x-api-key"),
        ("openai", "error_401_invalid_api_key", "HTTP 401: Incorrect API key provided: invalid-*****2345."),
        ("openai", "error_404_model_not_found_chat", "HTTP 404: The model `this-model-does-not-exist"),
        ("google", "error_400_api_key_invalid_sse", "HTTP 400: API key not valid. Please pass a valid"),
        ("google", "error_404_model_not_found_sse", "HTTP 404: models/this-model-does-not-exist-12345"),
    ],
)
async def test_recorded_client_errors_end_with_the_providers_message(
    directory: str, name: str, expected: str
) -> None:
    async with ReplayServer(recorded(DATA / directory, name, split_at=(3, 10))) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.stop_reason == "error" and message.content == []
    assert (message.error_message or "").startswith(expected)
    assert "\n" not in (message.error_message or "")
    assert notices == [] and len(server.requests) == 1


async def test_recorded_rate_limits_are_retried() -> None:
    script = [
        recorded(DATA / "google", "error_429_resource_exhausted"),
        recorded(DATA / "openrouter", "error_429_upstream_rate_limited"),
        Scripted(body=toy_text_stream(["ok"])),
    ]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok"
    assert notices[0].error_message.startswith("HTTP 429: Resource exhausted.")
    assert notices[1].error_message == "HTTP 429: Provider returned error"


async def test_bare_json_error_under_sse_content_type_with_status_200_is_detected() -> None:
    google = (DATA / "google" / "error_429_resource_exhausted.json").read_bytes()
    script = [
        Scripted(200, {"content-type": "text/event-stream"}, google),
        Scripted(body=toy_text_stream(["ok"])),
    ]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok"
    assert notices[0].error_message.startswith("HTTP 429: Resource exhausted.")


async def test_context_overflow_body_is_reported_and_recognised() -> None:
    body = error_body("prompt is too long: 208310 tokens > 200000 maximum")
    async with ReplayServer(Scripted(400, JSON, body)) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.error_message == "HTTP 400: prompt is too long: 208310 tokens > 200000 maximum"
    assert is_context_overflow(message, 200_000)
    assert notices == []


async def test_in_stream_overloaded_error_before_content_is_retried_after_content_is_not() -> None:
    overloaded = toy_sse([{"t": "error", "message": "Overloaded"}])
    script = [Scripted(body=overloaded), Scripted(body=toy_text_stream(["ok"]))]
    async with ReplayServer(script) as server:
        events, notices = await run(provider(server))
    assert final(events).text == "ok" and notices[0].error_message == "Overloaded"
    late = toy_sse([{"t": "text", "d": "half"}, {"t": "error", "message": "Overloaded"}])
    async with ReplayServer(Scripted(body=late)) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.text == "half" and message.error_message == "Overloaded" and notices == []


async def test_cancellation_mid_stream_aborts_promptly_and_closes_the_connection() -> None:
    body = toy_text_stream(["first", "second"])
    second = body.index(b"data:", 1)
    token = CancellationToken()
    async with ReplayServer(Scripted(body=body, stall_after=second)) as server:
        p = provider(server)
        events: list[AssistantMessageEvent] = []
        cancelled_at = 0.0
        async for event in p.stream(CONTEXT, StreamOptions(signal=token)):
            events.append(event)
            if event.type == "text_delta":
                cancelled_at = time.monotonic()
                token.cancel("user pressed escape")
        aborted_after = time.monotonic() - cancelled_at
        assert await server.wait_for_hangup(2.0)
        await p.aclose()
    message = final(events)
    assert message.stop_reason == "aborted" and message.text == "first"
    assert message.error_message == "user pressed escape"
    assert aborted_after < 1.0


async def test_cancellation_during_a_retry_wait_ends_at_once() -> None:
    token = CancellationToken()
    script = Scripted(503, {**JSON, "retry-after": "30"}, error_body("busy"))

    def on_retry(notice: RetryNotice) -> None:
        asyncio.get_running_loop().call_later(0.05, token.cancel)

    async with ReplayServer(script) as server:
        started = time.monotonic()
        events, _ = await run(provider(server), StreamOptions(signal=token, on_retry=on_retry))
    assert time.monotonic() - started < 2.0
    assert final(events).stop_reason == "aborted"


async def test_already_cancelled_token_ends_before_any_request() -> None:
    token = CancellationToken()
    token.cancel()
    async with ReplayServer(Scripted(body=toy_text_stream(["x"]))) as server:
        events, _ = await run(provider(server), StreamOptions(signal=token))
    assert final(events).stop_reason == "aborted" and server.requests == []


async def test_consumer_leaving_early_closes_the_request() -> None:
    body = toy_text_stream(["a", "b"])
    async with ReplayServer(Scripted(body=body, stall_after=body.index(b"data:", 1))) as server:
        p = provider(server)
        stream = p.stream(CONTEXT, StreamOptions())
        async for event in stream:
            if event.type == "text_delta":
                break
        await stream.aclose()  # type: ignore[attr-defined]
        assert await server.wait_for_hangup(2.0)
        await p.aclose()


async def test_connection_refused_is_retried_then_reported() -> None:
    async with ReplayServer(Scripted()) as server:
        url = server.url
    p = HttpProvider(
        toy_model(url), TOY_WIRE, api_key=None, retry=RetryPolicy(max_retries=1, base_delay=0.001)
    )
    events, notices = await run(p)
    message = final(events)
    assert message.stop_reason == "error" and "Connection error" in (message.error_message or "")
    assert len(notices) == 1


async def test_model_and_option_headers_are_sent_options_winning() -> None:
    async with ReplayServer(Scripted(body=toy_text_stream(["ok"]))) as server:
        p = provider(server, model_fields={"headers": {"x-team": "model", "x-both": "model"}})
        await run(p, StreamOptions(headers={"x-both": "options"}))
    headers = server.requests[0].headers
    assert headers["x-team"] == "model" and headers["x-both"] == "options"


async def test_usage_is_priced_from_the_model() -> None:
    body = toy_sse(
        [{"t": "text", "d": "x"}, {"t": "usage", "in": 1_000_000, "out": 500_000, "cr": 0}, {"t": "end"}]
    )
    async with ReplayServer(Scripted(body=body)) as server:
        p = provider(server, model_fields={"cost": ModelCost(input=3.0, output=15.0)})
        events, _ = await run(p)
    cost = final(events).usage.cost
    assert (cost.input, cost.output, cost.total) == (3.0, 7.5, 10.5)


async def test_handoff_runs_before_the_request_is_built() -> None:
    failed = AssistantMessage([TextContent("half")], api="x", stop_reason="aborted")
    foreign = AssistantMessage([ThinkingContent("plan"), TextContent("done")], api="other", model="m2")
    context = Context("", [UserMessage("a"), failed, UserMessage("b"), foreign, UserMessage("c")])
    async with ReplayServer(Scripted(body=toy_text_stream(["ok"]))) as server:
        await run(provider(server), context=context)
    sent = server.requests[0].json()["messages"]
    assert [m["role"] for m in sent] == ["user", "user", "assistant", "user"]
    assert sent[2]["text"] == "plandone"  # the other model's thinking became plain text


async def test_http_proxy_from_the_environment_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy", "HTTPS_PROXY", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    async with ReplayServer(Scripted(body=toy_text_stream(["via proxy"]))) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("http_proxy", proxy.url)
        p = HttpProvider(toy_model("http://models.example.test/v1"), TOY_WIRE, api_key="k", retry=FAST)
        events, _ = await run(p)
    assert final(events).text == "via proxy"
    assert proxy.requests[0].path == "http://models.example.test/v1/toy/stream"


async def test_no_proxy_bypasses_the_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ALL_PROXY", "all_proxy", "HTTPS_PROXY", "https_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    async with ReplayServer(Scripted(body=toy_text_stream(["direct"]))) as server:
        events, _ = await run(provider(server))
    assert final(events).text == "direct"


async def test_an_injected_client_still_gets_the_idle_timeout() -> None:
    body = toy_text_stream(["partial", "never"])
    script = Scripted(body=body, stall_after=body.index(b"data:", 1))
    async with ReplayServer(script) as server, httpx.AsyncClient(timeout=60.0) as client:
        p = HttpProvider(toy_model(server.url), TOY_WIRE, api_key="k", client=client, idle_timeout=0.2)
        started = time.monotonic()
        events, _ = await run(p)
        assert time.monotonic() - started < 3.0
        assert not client.is_closed  # not ours to close
    assert "stalled" in (final(events).error_message or "")


def test_headers_merge_without_regard_to_case_and_bodies_always_encode() -> None:
    merged = merge_headers({"Content-Type": "application/json", "X-Api-Key": "a"}, {"x-api-key": "b"})
    assert merged == {"content-type": "application/json", "x-api-key": "b"}
    assert encode_body({"t": "é"}) == '{"t":"é"}'.encode()
    assert encode_body({"t": "\ud800"}) == b'{"t":"\\ud800"}'


async def test_a_page_that_is_not_sse_is_reported_not_parsed_into_nothing() -> None:
    page = b"<!DOCTYPE html><html><body>Welcome to nginx!</body></html>"
    async with ReplayServer(Scripted(200, {"content-type": "text/html"}, page)) as server:
        events, notices = await run(provider(server))
    message = final(events)
    assert message.error_message == "HTTP 200: <!DOCTYPE html><html><body>Welcome to nginx!</body></html>"
    assert notices == [] and len(server.requests) == 1


async def test_sse_under_a_wrong_content_type_is_still_read() -> None:
    async with ReplayServer(Scripted(200, {"content-type": "text/plain"}, toy_text_stream(["ok"]))) as server:
        events, _ = await run(provider(server))
    assert final(events).text == "ok"
