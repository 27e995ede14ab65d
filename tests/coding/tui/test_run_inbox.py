"""RunInbox: a run's events reach the app in order; a streaming reply's deltas and a running
tool's progress ask only for a frame, every other event also wakes the app with a message."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from textual.app import App

from tau_agent.events import AgentEndEvent, AgentStartEvent, ToolExecutionUpdateEvent
from tau_agent.tools import AgentToolResult
from tau_coding.tui.bridge import EventsWaiting, RunEvent, RunFinished, RunInbox, start_events


class _Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.woken = 0

    def on_events_waiting(self, message: EventsWaiting) -> None:
        self.woken += 1


def _progress(text: str) -> ToolExecutionUpdateEvent:
    return ToolExecutionUpdateEvent("call-1", "bash", {}, AgentToolResult.text(text))


async def test_progress_asks_for_a_streamed_frame_and_other_events_wake_the_app() -> None:
    app = _Host()
    frames: list[bool] = []
    async with app.run_test() as pilot:
        inbox = RunInbox(app, frames.append)
        start, first, second, end = AgentStartEvent(), _progress("a"), _progress("ab"), AgentEndEvent([])
        for event in (start, first, second):
            inbox.put(event)
        await pilot.pause()
        assert app.woken == 1  # the start alone
        assert frames == [True, True]  # each piece of progress asked for a streamed frame
        inbox.put(end)
        await pilot.pause()
        assert app.woken == 2
        taken: list[RunEvent] = inbox.take()
        assert taken == [start, first, second, end]  # in order, whatever woke the app
        assert inbox.take() == []


async def test_a_run_in_a_worker_puts_every_event_and_then_finishes() -> None:
    class Host(_Host):
        def __init__(self) -> None:
            super().__init__()
            self.finished: list[RunEvent] | None = None

        def on_run_finished(self, message: RunFinished) -> None:
            self.finished = inbox.take()

    async def events() -> AsyncIterator[RunEvent]:
        yield AgentStartEvent()
        for n in range(50):
            yield _progress("x" * n)
        yield AgentEndEvent([])

    app = Host()
    async with app.run_test() as pilot:
        inbox = RunInbox(app, lambda streaming: None)
        start_events(inbox, events)
        while app.finished is None:
            await asyncio.sleep(0.01)
        await pilot.pause()
    assert app.finished is not None
    assert len(app.finished) == 52  # every event is waiting when the run's end arrives
    assert app.woken == 2  # the start and the end; the progress needed no message
