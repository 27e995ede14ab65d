"""FrameScheduler: when the app paints what changed in its state.

Requests coalesce: ``request`` any number of times, the paint runs once a frame at most. How
long a frame waits is set by three things: the frame rate (``FRAME_SECONDS``), what the last
frame cost (``FRAME_BUDGET``), and what changed: a streaming reply's text alone is painted at
``STREAM_FRAME_SECONDS`` at most, anything else (a new item, a tool's end, the end of a reply,
the footer's status) at the full frame rate, even when a slower frame for streamed text is
already waiting (it is brought forward).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App
from textual.timer import Timer

FRAME_SECONDS = 1 / 30  # what changed shows this soon after a quiet spell, and no faster
# While only a reply's text grows, a frame a fifteenth of a second is smooth to read; each frame
# costs 3-5 ms of the process's CPU (the paint, Textual's redraw and the terminal write), so
# this is what keeps 200 tokens/s within its share of a core.
STREAM_FRAME_SECONDS = 1 / 15
# The share of one core that frames may take while output streams: with the events of 200
# tokens/s (7-8 % of a core: network, agent loop, state) the process stays within 15 %.
FRAME_BUDGET = 0.06
LONGEST_FRAME_GAP = 0.2  # however costly the frames, output shows at least this often


class FrameScheduler:
    """Coalesces repaint requests: ``request`` many times, ``paint`` runs once per frame at most.
    ``hold_for_refresh`` keeps paints back until the screen has been drawn once.

    Frames are paced by what they cost: a frame (the paint and Textual's redraw after it, CPU
    time of the event loop's thread) is followed by a gap of at least its cost divided by
    ``FRAME_BUDGET``, so drawing stays within that share of a core. A cheap frame (a short
    answer, a tool row) still comes every ``FRAME_SECONDS``, or every ``STREAM_FRAME_SECONDS``
    when every request since the last paint said ``streaming``; a costly one (a long paragraph or
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
        self._streaming = True  # and every request since the last paint was streamed text
        self._timer: Timer | None = None  # the paint's timer, while one is set
        self._due = 0.0  # when it fires (wall clock)
        self._armed = 0  # counts timers set: a timer replaced by an earlier one does nothing
        self._held = False
        self._cpu = cpu_clock
        self._wall = wall_clock
        self._gap = FRAME_SECONDS  # the least time from one paint to the next, by its cost
        self._last = float("-inf")  # when the last paint started

    def request(self, *, streaming: bool = False) -> None:
        """Paint soon. ``streaming``: only a streaming reply's text (or a running tool's output)
        grew, which may wait for ``STREAM_FRAME_SECONDS``; anything else is painted at the full
        frame rate, bringing forward a paint already set for streamed text."""
        self._pending = True
        self._streaming = self._streaming and streaming
        self._schedule()

    def delay(self, streaming: bool = False) -> float:
        """How long a request made now waits for its paint (``streaming``: as ``request``'s, and
        with every request since the last paint streamed text too)."""
        gap = max(self._gap, STREAM_FRAME_SECONDS) if streaming else self._gap
        return max(FRAME_SECONDS, self._last + gap - self._wall())

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
        if not self._pending or self._held:
            return
        delay = self.delay(self._streaming)
        due = self._wall() + delay
        if self._timer is not None:
            if due >= self._due - 0.001:  # the paint already set comes as soon
                return
            self._timer.stop()  # (if it already fired, its ``_run`` sees it was replaced)
        self._armed += 1
        armed = self._armed
        self._due = due
        self._timer = self._app.set_timer(delay, lambda: self._run(armed))

    async def _run(self, armed: int) -> None:
        if armed != self._armed:  # replaced by a sooner one
            return
        self._timer = None
        if self._held:  # a timer set before the hold: ``_release`` sets another
            return
        self._pending = False
        self._streaming = True
        self._last = self._wall()
        started = self._cpu()
        await self._paint()
        self._app.call_after_refresh(self._frame_drawn, started)

    def _frame_drawn(self, started: float) -> None:
        self.frame_cost(self._cpu() - started)

    def frame_cost(self, cpu_seconds: float) -> None:
        """The last frame took ``cpu_seconds``: the next one waits accordingly."""
        self._gap = min(LONGEST_FRAME_GAP, max(FRAME_SECONDS, cpu_seconds / FRAME_BUDGET))
