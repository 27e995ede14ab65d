"""FrameScheduler in a running Textual app: requests coalesce into one paint a frame, and a hold
keeps paints back until the screen has been drawn (Esc's "cancelling…" frame goes out alone)."""

from __future__ import annotations

import asyncio
from itertools import pairwise

import pytest
from textual.app import App

from tau_coding.tui.frame_scheduler import FRAME_SECONDS, STREAM_FRAME_SECONDS, FrameScheduler


async def test_requests_in_one_frame_paint_once() -> None:
    paints: list[float] = []

    async def paint() -> None:
        paints.append(asyncio.get_running_loop().time())

    app: App[None] = App()
    async with app.run_test() as pilot:
        scheduler = FrameScheduler(app, paint)
        for _ in range(5):
            scheduler.request()
        await asyncio.sleep(FRAME_SECONDS * 4)
        await pilot.pause()
        assert len(paints) == 1


async def test_a_hold_keeps_paints_back_until_the_screen_is_refreshed() -> None:
    events: list[str] = []

    async def paint() -> None:
        events.append("paint")

    app: App[None] = App()
    async with app.run_test() as pilot:
        scheduler = FrameScheduler(app, paint)
        scheduler.request()  # a paint already on its timer when Esc comes
        scheduler.hold_for_refresh()
        app.call_after_refresh(lambda: events.append("refreshed"))
        scheduler.request()
        app.refresh()
        await asyncio.sleep(FRAME_SECONDS * 6)
        await pilot.pause()
        assert events == ["refreshed", "paint"]  # after the refresh, and once


@pytest.mark.parametrize(
    ("streaming", "rate"), [(False, 1 / FRAME_SECONDS), (True, 1 / STREAM_FRAME_SECONDS)], ids=["any", "text"]
)
async def test_a_stream_of_requests_paints_at_most_its_rate(streaming: bool, rate: float) -> None:
    """A reply streaming a network read every 5 ms asks for 200 paints a second; at most 30 a
    second happen, 15 when only the reply's text changed. This pace, not Textual's drawing grid
    (TEXTUAL_FPS, 240 in the TUI: modes/interactive/frame_rate.py), is what sets how often
    streamed output is rendered."""
    paints: list[float] = []
    loop = asyncio.get_running_loop()

    async def paint() -> None:
        paints.append(loop.time())

    app: App[None] = App()
    async with app.run_test() as pilot:
        scheduler = FrameScheduler(app, paint)
        start = loop.time()
        while loop.time() - start < 0.6:
            scheduler.request(streaming=streaming)
            await asyncio.sleep(0.005)
        await asyncio.sleep(2 / rate)
        await pilot.pause()
    assert 2 <= len(paints) <= 0.6 * rate + 2  # however fast Textual draws
    gaps = [later - earlier for earlier, later in pairwise(paints)]
    assert min(gaps) >= 0.9 / rate  # (the loop's clock may fire a timer a hair early)


async def test_a_change_other_than_streamed_text_brings_the_waiting_paint_forward() -> None:
    """Streamed text asked for a paint a fifteenth of a second away; a tool row (any other
    request) comes at the frame rate instead, and the paint set before it does not come again."""
    paints: list[float] = []
    loop = asyncio.get_running_loop()

    async def paint() -> None:
        paints.append(loop.time())

    app: App[None] = App()
    async with app.run_test() as pilot:
        scheduler = FrameScheduler(app, paint)
        scheduler.request()
        while not paints:
            await asyncio.sleep(0.005)
        scheduler.request(streaming=True)  # its paint: STREAM_FRAME_SECONDS after the last
        asked = loop.time()
        scheduler.request()
        await asyncio.sleep(STREAM_FRAME_SECONDS * 4)
        await pilot.pause()
    assert len(paints) == 2  # one paint for both requests
    assert paints[1] - asked < STREAM_FRAME_SECONDS  # at the frame rate (FRAME_SECONDS)
