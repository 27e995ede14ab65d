"""Scripted providers for tests, demos and benchmarks: no network, real event streams.

``FakeProvider`` plays a list of replies in order; ``FunctionProvider`` asks a function for
each reply. Both stream through AssistantMessageBuilder, so their events are exactly what a
real adapter produces, and both record every Context and StreamOptions they were sent.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from tau_agent.assistant_builder import AssistantMessageBuilder
from tau_agent.messages import StopReason, Usage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent


@dataclass(frozen=True, slots=True)
class TextPart:
    chunks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ThinkingPart:
    chunks: tuple[str, ...]
    signature: str | None = None
    redacted: bool = False


@dataclass(frozen=True, slots=True)
class ToolCallPart:
    name: str
    arguments: dict[str, Any]
    id: str | None = None


Part: TypeAlias = TextPart | ThinkingPart | ToolCallPart


@dataclass(frozen=True, slots=True)
class FakeReply:
    """One scripted reply: parts in order, then a normal end or an error (``error`` set)."""

    parts: tuple[Part, ...] = ()
    stop_reason: StopReason | None = None
    error: str | None = None
    usage: Usage | None = None
    delay: float = 0.0  # seconds to wait before each part (and before ending)


def _split(text: str, chunk_size: int | None) -> tuple[str, ...]:
    if not chunk_size or chunk_size >= len(text):
        return (text,)
    return tuple(text[i : i + chunk_size] for i in range(0, len(text), chunk_size))


def text(value: str, *, chunk_size: int | None = None) -> TextPart:
    return TextPart(_split(value, chunk_size))


def deltas(pieces: Iterable[str]) -> TextPart:
    """Text that streams as exactly these deltas."""
    return TextPart(tuple(pieces))


def thinking(value: str, *, signature: str | None = None, chunk_size: int | None = None) -> ThinkingPart:
    return ThinkingPart(_split(value, chunk_size), signature)


def call(name: str, arguments: dict[str, Any] | None = None, *, id: str | None = None) -> ToolCallPart:
    return ToolCallPart(name, dict(arguments or {}), id)


def reply(
    *parts: Part | str,
    stop_reason: StopReason | None = None,
    usage: Usage | None = None,
    delay: float = 0.0,
) -> FakeReply:
    """A reply; bare strings are text parts."""
    return FakeReply(
        tuple(text(p) if isinstance(p, str) else p for p in parts), stop_reason, None, usage, delay
    )


def fail(error: str, *parts: Part | str, delay: float = 0.0) -> FakeReply:
    """A reply that streams ``parts`` and then fails with ``error`` (like an HTTP 500 mid-stream)."""
    return FakeReply(tuple(text(p) if isinstance(p, str) else p for p in parts), None, error, None, delay)


ReplyLike: TypeAlias = FakeReply | str


@dataclass(slots=True)
class _Recorder:
    api: str = "fake"
    provider: str = "fake"
    model: str = "fake-model"
    contexts: list[Context] = field(default_factory=list)
    options: list[StreamOptions] = field(default_factory=list)
    call_counter: int = 0

    async def play(self, script: FakeReply, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        builder = AssistantMessageBuilder(api=self.api, provider=self.provider, model=self.model)
        signal = options.signal
        for event in builder.start():
            yield event
        for part in script.parts:
            if not await _pause(script.delay, options):
                break
            if isinstance(part, TextPart):
                for chunk in part.chunks:
                    if signal.cancelled:
                        break
                    for event in builder.text_delta(chunk):
                        yield event
            elif isinstance(part, ThinkingPart):
                for chunk in part.chunks:
                    if signal.cancelled:
                        break
                    for event in builder.thinking_delta(chunk, redacted=part.redacted):
                        yield event
                if part.signature:
                    builder.set_signature(part.signature)
            else:
                self.call_counter += 1
                call_id = part.id or f"call_{self.call_counter}"
                for event in builder.tool_call(call_id, part.name, part.arguments):
                    yield event
            for event in builder.close_block():
                yield event
        if signal.cancelled or not await _pause(script.delay, options):
            for event in builder.fail("aborted", signal.reason or "Operation aborted"):
                yield event
            return
        if script.usage is not None:
            builder.message.usage = script.usage
        if script.error is not None:
            for event in builder.fail("error", script.error):
                yield event
            return
        for event in builder.finish(script.stop_reason):
            yield event


async def _pause(delay: float, options: StreamOptions) -> bool:
    """Wait ``delay`` seconds unless cancelled first; False when cancelled."""
    if options.signal.cancelled:
        return False
    if delay <= 0:
        return True
    waiter = asyncio.ensure_future(options.signal.wait())
    try:
        await asyncio.wait([waiter], timeout=delay)
    finally:
        waiter.cancel()
    return not options.signal.cancelled


class FakeProvider:
    """Plays scripted replies in order; ``repeat_last`` replays the last one forever."""

    def __init__(
        self,
        replies: Sequence[ReplyLike] = (),
        *,
        repeat_last: bool = False,
        api: str = "fake",
        provider: str = "fake",
        model: str = "fake-model",
    ) -> None:
        self._replies = [reply(r) if isinstance(r, str) else r for r in replies]
        self._repeat_last = repeat_last
        self._recorder = _Recorder(api, provider, model)

    api = property(lambda self: self._recorder.api)
    provider = property(lambda self: self._recorder.provider)
    model = property(lambda self: self._recorder.model)

    @property
    def contexts(self) -> list[Context]:
        """Every context this provider was sent, in order."""
        return self._recorder.contexts

    @property
    def calls(self) -> int:
        return len(self._recorder.contexts)

    def add(self, *replies: ReplyLike) -> None:
        self._replies.extend(reply(r) if isinstance(r, str) else r for r in replies)

    def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        index = len(self._recorder.contexts)
        self._recorder.contexts.append(context)
        self._recorder.options.append(options)
        if index < len(self._replies):
            script = self._replies[index]
        elif self._repeat_last and self._replies:
            script = self._replies[-1]
        else:
            script = fail("FakeProvider has no scripted reply left")
        return self._recorder.play(script, options)


ReplyFunction: TypeAlias = Callable[[Context, StreamOptions], ReplyLike | Awaitable[ReplyLike]]


class FunctionProvider:
    """Asks ``fn(context, options)`` for each reply (sync or async), then streams it."""

    def __init__(
        self, fn: ReplyFunction, *, api: str = "fake", provider: str = "fake", model: str = "fake-model"
    ) -> None:
        self._fn = fn
        self._recorder = _Recorder(api, provider, model)

    api = property(lambda self: self._recorder.api)
    provider = property(lambda self: self._recorder.provider)
    model = property(lambda self: self._recorder.model)

    @property
    def contexts(self) -> list[Context]:
        return self._recorder.contexts

    async def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        self._recorder.contexts.append(context)
        self._recorder.options.append(options)
        produced = self._fn(context, options)
        if inspect.isawaitable(produced):
            produced = await produced
        script = reply(produced) if isinstance(produced, str) else produced
        async for event in self._recorder.play(script, options):
            yield event
