"""The bridge: a session run in a Textual worker, its events posted to the app as messages.

The worker only forwards; the app folds each event into TuiState (O(1)) and repaints what
changed at most once per frame (see ``FrameScheduler``). A run that raises (a programmer
error, never a provider failure, which arrives as data) ends with ``RunFinished.error`` set.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from textual.app import App
from textual.message import Message
from textual.worker import Worker

from tau_agent.content import ImageContent
from tau_agent.event_batch import EventBatch
from tau_agent.events import AgentEvent
from tau_coding.tui.items import RunNotice
from tau_coding.tui.port import ConversationPort

FRAME_SECONDS = 1 / 30  # streaming text needs no more, however cheap a frame
FRAME_BUDGET = 0.08  # the share of one core that frames may take while output streams
LONGEST_FRAME_GAP = 0.2  # however costly the frames, output shows at least this often


class AgentEventMessage(Message):
    """An event of a run, or a batch of a streaming reply's events (a Textual message costs
    tens of µs to dispatch: one per network read, not one per delta)."""

    def __init__(self, event: AgentEvent | RunNotice | EventBatch) -> None:
        super().__init__()
        self.event = event


class RunFinished(Message):
    def __init__(self, error: str | None = None) -> None:
        super().__init__()
        self.error = error


def start_run(
    app: App[Any],
    port: ConversationPort,
    text: str,
    images: Sequence[ImageContent] = (),
    after: asyncio.Event | None = None,
) -> Worker[None]:
    """Run ``port.prompt(text, images)`` in a worker; every event becomes an ``AgentEventMessage``.
    With ``after`` not yet set, the prompt waits for it (a prompt sent while the app starts goes
    after the session's history is shown, whoever sent it)."""
    if after is None or after.is_set():
        return start_events(app, lambda: port.prompt(text, images))

    async def later() -> AsyncIterator[AgentEvent | RunNotice | EventBatch]:
        await after.wait()
        async for event in port.prompt(text, images):
            yield event

    return start_events(app, later)


def start_events(
    app: App[Any], events: Callable[[], AsyncIterator[AgentEvent | RunNotice | EventBatch]]
) -> Worker[None]:
    """Run ``events()`` (a prompt's, or a run started another way) in a worker, as ``start_run``."""

    async def run() -> None:
        error: str | None = None
        try:
            async for event in events():
                app.post_message(AgentEventMessage(event))
        except Exception as exc:  # shown to the user; the app must survive a broken session
            error = f"{type(exc).__name__}: {exc}"
        app.post_message(RunFinished(error))

    return app.run_worker(run(), name="agent-run", group="run", exit_on_error=False)


class FrameScheduler:
    """Coalesces repaint requests: ``request`` many times, ``paint`` runs once per frame at most.
    ``hold_for_refresh`` keeps paints back until the screen has been drawn once.

    Frames are paced by what they cost: a frame (the paint and Textual's redraw after it, CPU
    time of the event loop's thread) is followed by a gap of at least its cost divided by
    ``FRAME_BUDGET``, so drawing stays within that share of a core. A cheap frame (a short
    answer, a tool row) still comes every ``FRAME_SECONDS``; a costly one (a long paragraph or
    code block re-rendered whole at every frame) comes less often, never less than every
    ``LONGEST_FRAME_GAP``. After a quiet spell a request is painted one frame later, as before.
    """

    def __init__(
        self,
        app: App[Any],
        paint: Callable[[], Awaitable[None]],
        *,
        cpu_clock: Callable[[], float] = time.thread_time,
        wall_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._app = app
        self._paint = paint
        self._pending = False  # a paint was asked for
        self._timed = False  # and its timer is set
        self._held = False
        self._cpu = cpu_clock
        self._wall = wall_clock
        self._gap = FRAME_SECONDS  # the least time from one paint to the next
        self._last = float("-inf")  # when the last paint started

    def request(self) -> None:
        self._pending = True
        self._schedule()

    def delay(self) -> float:
        """How long a request made now waits for its paint."""
        return max(FRAME_SECONDS, self._last + self._gap - self._wall())

    def hold_for_refresh(self) -> None:
        """No paint until Textual's next screen refresh is written: what changed just before
        (Esc's footer) goes out alone, not in a frame that also redraws the streamed answer."""
        if not self._held:
            self._held = True
            self._app.call_after_refresh(self._release)

    def _release(self) -> None:
        self._held = False
        self._schedule()

    def _schedule(self) -> None:
        if self._pending and not self._held and not self._timed:
            self._timed = True
            self._app.set_timer(self.delay(), self._run)

    async def _run(self) -> None:
        self._timed = False
        if self._held:  # a timer set before the hold: ``_release`` sets another
            return
        self._pending = False
        self._last = self._wall()
        started = self._cpu()
        await self._paint()
        self._app.call_after_refresh(self._frame_drawn, started)

    def _frame_drawn(self, started: float) -> None:
        self.frame_cost(self._cpu() - started)

    def frame_cost(self, cpu_seconds: float) -> None:
        """The last frame took ``cpu_seconds``: the next one waits accordingly."""
        self._gap = min(LONGEST_FRAME_GAP, max(FRAME_SECONDS, cpu_seconds / FRAME_BUDGET))
