"""Batches: the events of one network read, handed between layers as one item.

A streamed reply arrives a network read at a time, often hundreds of deltas per read. Passing
each delta through every generator layer (provider, loop, harness, session, mode) costs each
delta a resumption per layer; passing the read's events as one batch costs one per read, and
the per-delta work becomes a tight loop inside each layer. Batching is transport only: the
events in a batch, and their order, are exactly what the flat stream yields (``flat``), and
every subscriber still hears each event on its own.

What code that meets a batch may rely on:

* a batch holds one or more ``message_start`` / ``message_update`` events of one streaming
  reply, never anything else: a ``message_end`` (persisted, acted on) is always an item of its
  own, as are turn, tool and run events, so code that acts on those never looks inside;
* the record changed before the batch was made (the builder appended every delta in it), so
  the rule "mutate, then announce" holds for each event of the batch as it did one by one.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import TypeVar

from tau_agent.events import AgentEvent
from tau_agent.stream_events import AssistantMessageEvent

T = TypeVar("T")


class EventBatch:
    """Streaming events of one reply, relayed as one item (see the module docstring)."""

    __slots__ = ("events",)

    def __init__(self, events: list[AgentEvent]) -> None:
        self.events = events

    def __repr__(self) -> str:
        return f"EventBatch({self.events!r})"


async def flat(items: AsyncGenerator[T | EventBatch, None]) -> AsyncGenerator[T | AgentEvent, None]:
    """The events of ``items`` one by one, batches opened in place; closing this closes ``items``."""
    async with aclosing(items) as source:
        async for item in source:
            if type(item) is EventBatch:
                for event in item.events:
                    yield event
            else:
                yield item  # type: ignore[misc]  # not a batch, so a T


class BatchedStream:
    """A provider's stream that arrives in batches (one network read's events each).

    Iterated, it yields the events one by one, as the ``ModelProvider`` contract says, so any
    consumer can use it; the agent loop takes ``batches`` instead. A batch is never empty, and
    a final event (``done`` or ``error``) always ends its batch. ``aclose`` ends the stream
    early (the provider stops its request), whichever way it was read.
    """

    __slots__ = ("_flat", "batches")

    def __init__(self, batches: AsyncGenerator[list[AssistantMessageEvent], None]) -> None:
        self.batches = batches
        self._flat: AsyncGenerator[AssistantMessageEvent, None] | None = None

    def __aiter__(self) -> AsyncIterator[AssistantMessageEvent]:
        return self

    async def __anext__(self) -> AssistantMessageEvent:
        if self._flat is None:
            self._flat = _events_of(self.batches)
        return await self._flat.__anext__()

    async def aclose(self) -> None:
        if self._flat is not None:
            await self._flat.aclose()
        await self.batches.aclose()


async def _events_of(
    batches: AsyncGenerator[list[AssistantMessageEvent], None],
) -> AsyncGenerator[AssistantMessageEvent, None]:
    async for batch in batches:
        for event in batch:
            yield event
