"""The bridge: a session run in a Textual worker, its events handed to the app through a RunInbox.

The worker only forwards; the app folds each event into TuiState (O(1)) and repaints what
changed at most once per frame (see ``FrameScheduler``). A run that raises (a programmer
error, never a provider failure, which arrives as data) ends with ``RunFinished.error`` set.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from textual.app import App
from textual.message import Message
from textual.worker import Worker

from tau_agent.content import ImageContent
from tau_agent.event_batch import EventBatch
from tau_agent.events import AgentEvent, MessageUpdateEvent, ToolExecutionUpdateEvent
from tau_coding.tui.items import RunNotice
from tau_coding.tui.port import ConversationPort

RunEvent = AgentEvent | RunNotice | EventBatch


class EventsWaiting(Message):
    """A run's event that should be shown promptly is in the inbox (``RunInbox``)."""


class RunFinished(Message):
    def __init__(self, error: str | None = None) -> None:
        super().__init__()
        self.error = error


class RunInbox:
    """The events of the runs under way, in the order they came, until the app takes them.

    What the app may rely on: ``take`` returns every event put since the last ``take``, in
    order, so folding what it returns, whenever that happens, folds the run as it came. A
    streaming reply's batches and deltas and a running tool's progress only ask for a frame
    (``frame(streaming=True)``), since the paint takes them first; every other event also posts
    ``EventsWaiting``, whose handler takes them at once. So at 200 tokens/s the app's message
    queue does not carry 200 messages a second: a Textual message costs ~40 µs to dispatch,
    with the idle pass after it, and its handler would only have stored the event for the
    next frame anyway.
    """

    def __init__(self, app: App[Any], frame: Callable[[bool], None]) -> None:
        """``frame(streaming)`` asks the app for a paint (``FrameScheduler.request``)."""
        self.app = app
        self._frame = frame
        self._waiting: list[RunEvent] = []

    def put(self, event: RunEvent) -> None:
        self._waiting.append(event)
        kind = type(event)
        if kind is EventBatch or kind is MessageUpdateEvent or kind is ToolExecutionUpdateEvent:
            self._frame(True)
        else:
            self.app.post_message(EventsWaiting())

    def take(self) -> list[RunEvent]:
        taken, self._waiting = self._waiting, []
        return taken


def start_run(
    inbox: RunInbox,
    port: ConversationPort,
    text: str,
    images: Sequence[ImageContent] = (),
    after: asyncio.Event | None = None,
) -> Worker[None]:
    """Run ``port.prompt(text, images)`` in a worker; every event goes into ``inbox``.
    With ``after`` not yet set, the prompt waits for it (a prompt sent while the app starts goes
    after the session's history is shown, whoever sent it)."""
    if after is None or after.is_set():
        return start_events(inbox, lambda: port.prompt(text, images))

    async def later() -> AsyncIterator[RunEvent]:
        await after.wait()
        async for event in port.prompt(text, images):
            yield event

    return start_events(inbox, later)


def start_events(inbox: RunInbox, events: Callable[[], AsyncIterator[RunEvent]]) -> Worker[None]:
    """Run ``events()`` (a prompt's, or a run started another way) in a worker, as ``start_run``;
    ``RunFinished`` is posted after its last event is in the inbox."""
    app = inbox.app

    async def run() -> None:
        error: str | None = None
        try:
            async for event in events():
                inbox.put(event)
        except Exception as exc:  # shown to the user; the app must survive a broken session
            error = f"{type(exc).__name__}: {exc}"
        app.post_message(RunFinished(error))

    return app.run_worker(run(), name="agent-run", group="run", exit_on_error=False)
