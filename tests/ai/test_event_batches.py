"""Batches of one network read, from a real HTTP provider through the loop and the harness.

Batching is transport only: what the flat stream yields, and what subscribers hear, is the
same sequence of events as without it, while a read's deltas pass the layers as one item.
"""

from __future__ import annotations

from tau_agent.event_batch import BatchedStream, EventBatch, flat
from tau_agent.events import AgentEvent, MessageEndEvent, MessageStartEvent, MessageUpdateEvent
from tau_agent.harness import AgentHarness
from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import DoneEvent, TextDeltaEvent
from tau_ai.http_provider import HttpProvider
from tau_ai.retry import RetryPolicy
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream

PIECES = [f"{i % 10}" for i in range(500)]


def _provider(server: ReplayServer) -> HttpProvider:
    return HttpProvider(toy_model(server.url), TOY_WIRE, api_key="k", retry=RetryPolicy(max_retries=0))


async def test_a_read_of_many_deltas_is_one_batch_and_the_flat_stream_is_unchanged() -> None:
    # The whole body in one HTTP chunk: one read holds every delta.
    async with ReplayServer(Scripted(body=toy_text_stream(PIECES))) as server:
        provider = _provider(server)
        harness = AgentHarness(provider)
        heard: list[AgentEvent] = []
        harness.subscribe(heard.append)
        items = [item async for item in harness.prompt_batches(UserMessage("go"))]
        await provider.aclose()
    batches = [item for item in items if isinstance(item, EventBatch)]
    assert batches, [type(item).__name__ for item in items]
    assert max(len(batch.events) for batch in batches) >= len(PIECES) // 2
    opened = [event for item in items for event in (item.events if isinstance(item, EventBatch) else [item])]
    assert opened == heard  # subscribers hear each event once, in the order the flat stream has
    for batch in batches:  # only a reply's start and updates travel in a batch
        assert all(type(event) in (MessageStartEvent, MessageUpdateEvent) for event in batch.events)
    deltas = [
        e.assistant_message_event.delta
        for e in opened
        if isinstance(e, MessageUpdateEvent) and isinstance(e.assistant_message_event, TextDeltaEvent)
    ]
    assert deltas == PIECES
    ends = [e for e in opened if isinstance(e, MessageEndEvent)]
    assert ends[-1].message.text == "".join(PIECES)


async def test_the_flat_harness_stream_equals_the_batched_one_opened() -> None:
    async with ReplayServer([Scripted(body=toy_text_stream(PIECES))] * 2) as server:
        provider = _provider(server)
        harness = AgentHarness(provider)
        flat_types = [e.type async for e in harness.prompt("go")]
        harness.replace_messages([])
        opened = [e.type async for e in flat(harness.prompt_batches(UserMessage("go")))]
        await provider.aclose()
    assert flat_types == opened
    assert flat_types.count("message_update") == len(PIECES) + 2  # text_start, the deltas, text_end


async def test_a_batched_stream_read_one_event_at_a_time_and_closed_early() -> None:
    async with ReplayServer(Scripted(body=toy_text_stream(PIECES))) as server:
        provider = _provider(server)
        stream = provider.stream(Context("", [UserMessage("go")]), StreamOptions())
        assert isinstance(stream, BatchedStream)
        events = [event async for event in stream]
        assert isinstance(events[-1], DoneEvent) and events[-1].message.text == "".join(PIECES)

        early = provider.stream(Context("", [UserMessage("go")]), StreamOptions())
        first = await early.__anext__()
        assert first.type == "start"
        await early.aclose()  # stops the request; nothing is left running
        await provider.aclose()
