"""HttpProvider's connections over a long session: every response is given back to the pool.

A process runs thousands of model requests. Each must close its response on every path (done,
error, cancel, a consumer that stops early), or the pool of 100 connections runs dry and the
101st request waits forever; and a finished response must be read to its end so that one
keep-alive connection serves the whole session.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import httpx
import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent, DoneEvent, ErrorEvent
from tau_ai.http1_connection import Body
from tau_ai.http_direct import DirectResponse
from tau_ai.http_provider import HttpProvider
from tau_ai.retry import NO_RETRY
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream

CONTEXT = Context("", [UserMessage("hi")])
ROUNDS = 130  # more than httpx's pool of 100 connections


def provider(server: ReplayServer, **kwargs: Any) -> HttpProvider:
    kwargs.setdefault("retry", NO_RETRY)
    kwargs.setdefault("connect_timeout", 2.0)
    return HttpProvider(toy_model(server.url), TOY_WIRE, api_key="k", **kwargs)


async def until_final(p: HttpProvider, options: StreamOptions | None = None) -> AssistantMessageEvent:
    """Stream as the agent loop does: stop reading at the final event and close the stream."""
    stream = p.stream(CONTEXT, options or StreamOptions())
    try:
        async for event in stream:
            if isinstance(event, DoneEvent | ErrorEvent):
                return event
    finally:
        await stream.aclose()  # type: ignore[attr-defined]
    raise AssertionError("no final event")


async def test_one_keep_alive_connection_serves_a_long_session() -> None:
    async with ReplayServer(Scripted(body=toy_text_stream(["hi"])), keep_alive=True) as server:
        p = provider(server)
        for _ in range(ROUNDS):
            event = await until_final(p)
            assert isinstance(event, DoneEvent), event.message.error_message
        await p.aclose()
    assert len(server.requests) == ROUNDS
    assert server.connections <= 2  # one, or two if a request overtook the last one's hand-back


async def test_servers_that_close_every_connection_never_run_the_pool_dry() -> None:
    async with ReplayServer(Scripted(body=toy_text_stream(["hi"]))) as server:
        p = provider(server)
        for _ in range(ROUNDS):
            event = await until_final(p)
            assert isinstance(event, DoneEvent), event.message.error_message
        await p.aclose()
    assert server.connections == ROUNDS


async def test_error_responses_give_their_connections_back() -> None:
    async with ReplayServer(Scripted(500, body=b"busy"), keep_alive=True) as server:
        p = provider(server)
        for _ in range(ROUNDS):
            event = await until_final(p)
            assert event.message.error_message == "HTTP 500: busy"
        await p.aclose()
    assert len(server.requests) == ROUNDS


async def test_consumers_that_stop_mid_message_give_their_connections_back() -> None:
    body = toy_text_stream(["a", "b", "c"])
    stalled = Scripted(body=body, stall_after=body.index(b"data:", 1))
    async with ReplayServer([stalled] * ROUNDS + [Scripted(body=body)]) as server:
        p = provider(server)
        for _ in range(ROUNDS):
            stream = p.stream(CONTEXT, StreamOptions())
            async for event in stream:
                if event.type == "text_delta":
                    break
            await stream.aclose()  # type: ignore[attr-defined]
        event = await until_final(p)
        assert isinstance(event, DoneEvent), event.message.error_message
        await p.aclose()
    assert len(server.requests) == ROUNDS + 1


async def test_cancelled_requests_give_their_connections_back() -> None:
    body = toy_text_stream(["a", "b"])
    async with ReplayServer(Scripted(body=body, stall_after=body.index(b"data:", 1))) as server:
        p = provider(server)
        for _ in range(ROUNDS):
            signal = CancellationToken()
            stream = p.stream(CONTEXT, StreamOptions(signal=signal))
            async for event in stream:
                if event.type == "text_delta":
                    signal.cancel("stop")
                if isinstance(event, DoneEvent | ErrorEvent):
                    assert event.message.stop_reason == "aborted"
        await p.aclose()
    assert len(server.requests) == ROUNDS


async def test_a_pool_with_no_free_connection_says_so() -> None:
    import httpx

    body = toy_text_stream(["a", "b"])
    async with ReplayServer(Scripted(body=body, stall_after=body.index(b"data:", 1))) as server:
        client = httpx.AsyncClient(limits=httpx.Limits(max_connections=1))
        p = provider(server, client=client, connect_timeout=0.3)
        stalled = p.stream(CONTEXT, StreamOptions())
        async for event in stalled:
            if event.type == "text_delta":
                break  # this request keeps the only connection until it is closed
        event = await until_final(p)
        assert event.message.error_message == (
            "No free HTTP connection after 0.3s: every pooled connection is in use"
        )
        await stalled.aclose()  # type: ignore[attr-defined]
        await client.aclose()


async def test_a_server_that_keeps_a_finished_stream_open_does_not_hold_the_caller() -> None:
    body = toy_text_stream(["hi"])
    async with ReplayServer(Scripted(body=body + b": still here\n\n", stall_after=len(body))) as server:
        p = provider(server)
        loop = asyncio.get_running_loop()
        started = loop.time()
        event = await until_final(p)
        assert isinstance(event, DoneEvent) and loop.time() - started < 0.5
        event = await until_final(p)  # the next request does not wait for the first to let go
        assert isinstance(event, DoneEvent) and loop.time() - started < 1.0
        await p.aclose()


async def test_a_sent_body_does_not_wait_for_the_cyclic_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """httpx's request and response refer to each other, so they live until the cyclic
    collector runs (ever more rarely as a session grows); the body, a long session's whole
    history, must not live on with them."""
    monkeypatch.setenv("TAU_HTTP_TRANSPORT", "httpx")
    history = "x" * 2_000_000
    gc.collect()
    gc.disable()
    try:
        async with ReplayServer(Scripted(body=toy_text_stream(["hi"])), keep_alive=True) as server:
            p = provider(server)
            stream = p.stream(Context("", [UserMessage(history)]), StreamOptions())
            events = [event async for event in stream]
            await p.aclose()
        assert isinstance(events[-1], DoneEvent)
        assert history.encode() in server.requests[0].body
        held = [o for o in gc.get_objects() if isinstance(o, httpx.Request)]
        assert held, "httpx no longer makes a cycle: http_client._Content can go"
        for request in held:
            sizes = [len(part) async for part in request.stream]  # type: ignore[union-attr]
            assert sum(sizes) < 1000
    finally:
        gc.enable()


async def test_tau_own_client_leaves_no_cycles_behind_a_request() -> None:
    """Without httpx nothing of a finished request waits for the cyclic collector."""
    gc.collect()
    gc.disable()
    try:
        async with ReplayServer(Scripted(body=toy_text_stream(["hi"])), keep_alive=True) as server:
            p = provider(server)
            for _ in range(3):
                events = [event async for event in p.stream(CONTEXT, StreamOptions())]
                assert isinstance(events[-1], DoneEvent)
            await p.aclose()
        kinds = (DirectResponse, Body)
        assert not [o for o in gc.get_objects() if isinstance(o, kinds)]
    finally:
        gc.enable()
