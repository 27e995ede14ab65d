"""Closing a screen lets go of it: opening and closing /tree again and again does not grow memory."""

from __future__ import annotations

import gc
from pathlib import Path

from tau_coding.tui.screens.tree_view import TreeScreen

from .session_helpers import Rig, drain
from .test_app import SIZE, until
from .test_session_screens import command, make_app


def _live_objects() -> int:
    gc.unfreeze()  # the app freezes its start-up objects; count everything
    gc.collect()
    return len(gc.get_objects())


async def test_opening_and_closing_a_screen_leaves_nothing_behind(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:

        async def open_and_close(times: int) -> None:
            for _ in range(times):
                await command(pilot, app, "/tree")
                await until(pilot, lambda: isinstance(app.screen, TreeScreen))
                await pilot.pause()
                await pilot.press("escape")
                await until(pilot, lambda: not isinstance(app.screen, TreeScreen))
                await pilot.pause()

        await open_and_close(5)  # caches that fill once
        before = _live_objects()
        await open_and_close(20)
        grown = _live_objects() - before
    # Textual kept about 2,000 objects per closed screen (textual#6665, style_cache.py).
    assert grown < 2_000, f"{grown} objects left behind by 20 screens"
