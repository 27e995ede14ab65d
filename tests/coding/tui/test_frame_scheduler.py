"""FrameScheduler in a running Textual app: requests coalesce into one paint a frame, and a hold
keeps paints back until the screen has been drawn (Esc's "cancelling…" frame goes out alone)."""

from __future__ import annotations

import asyncio

from textual.app import App

from tau_coding.tui.bridge import FRAME_SECONDS, FrameScheduler


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
