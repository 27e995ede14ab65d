"""Frames are paced by what they cost: drawing stays within FRAME_BUDGET of a core (bridge.py)."""

from __future__ import annotations

import time

from textual.app import App

from tau_coding.tui.frame_scheduler import (
    FRAME_BUDGET,
    FRAME_SECONDS,
    LONGEST_FRAME_GAP,
    STREAM_FRAME_SECONDS,
    FrameScheduler,
)


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def _nothing() -> None:
    return None


def test_a_cheap_frame_keeps_the_frame_rate_and_a_costly_one_spaces_the_next() -> None:
    wall = _Clock()
    scheduler = FrameScheduler(App(), _nothing, wall_clock=wall)
    assert scheduler.delay() == FRAME_SECONDS
    scheduler._last = wall.now  # a paint started now
    scheduler.frame_cost(0.001)
    assert scheduler.delay() == FRAME_SECONDS
    scheduler.frame_cost(0.010)  # 10 ms of CPU: the next frame 10 / FRAME_BUDGET ms after this one
    assert abs(scheduler.delay() - 0.010 / FRAME_BUDGET) < 1e-9
    wall.now += 0.05  # part of that gap has passed by the time of the request
    assert abs(scheduler.delay() - (0.010 / FRAME_BUDGET - 0.05)) < 1e-9
    scheduler.frame_cost(1.0)  # however costly, output shows at least every LONGEST_FRAME_GAP
    assert scheduler.delay() <= LONGEST_FRAME_GAP
    wall.now += 10  # after a quiet spell, one frame's wait as always
    assert scheduler.delay() == FRAME_SECONDS


async def test_in_a_running_app_a_costly_paint_holds_the_next_one_back() -> None:
    starts: list[float] = []

    async def costly_paint() -> None:
        starts.append(time.monotonic())
        until = time.thread_time() + 0.009  # 9 ms of CPU: the next paint >= 150 ms later
        while time.thread_time() < until:
            pass

    app = App[None]()
    async with app.run_test() as pilot:
        scheduler = FrameScheduler(app, costly_paint)
        scheduler.request()
        while len(starts) < 1:
            await pilot.pause(0.01)
        await pilot.pause(0.05)  # Textual's refresh after the paint: the frame's cost is known
        scheduler.request()
        while len(starts) < 2:
            await pilot.pause(0.01)
    assert starts[1] - starts[0] >= 0.009 / FRAME_BUDGET


def test_streamed_text_alone_waits_for_the_stream_frame_and_anything_else_does_not() -> None:
    wall = _Clock()
    scheduler = FrameScheduler(App(), _nothing, wall_clock=wall)
    scheduler._last = wall.now  # a paint started now, and cost little
    scheduler.frame_cost(0.001)
    assert abs(scheduler.delay(streaming=True) - STREAM_FRAME_SECONDS) < 1e-9
    assert scheduler.delay() == FRAME_SECONDS  # a tool row, the reply's end: at the frame rate
    scheduler.frame_cost(0.008)  # a frame costlier than the stream's pace: its cost sets both
    assert abs(scheduler.delay(streaming=True) - 0.008 / FRAME_BUDGET) < 1e-9
    assert abs(scheduler.delay() - 0.008 / FRAME_BUDGET) < 1e-9
    wall.now += 10  # after a quiet spell, streamed text too is painted one frame later
    assert scheduler.delay(streaming=True) == FRAME_SECONDS
