"""Writing a resumed session's history into the scrollback without holding up the keyboard.

Rendering the newest items of a long session for the scrollback takes longer than starting the
app (Rich renders each answer's Markdown and each tool's output), so the app paints its editor
first and writes the history after, a slice at a time: between slices the event loop runs, and
keys typed meanwhile are echoed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from tau_coding.tui.items import Item
from tau_coding.tui.shell.inline import Look, ScrollbackFeed

HISTORY_SLICE_SECONDS = 0.008  # the longest the history is written before giving way to keys


async def write_in_slices(feed: ScrollbackFeed, items: Sequence[Item], look: Callable[[], Look]) -> None:
    """Write ``items`` from ``feed.printed`` on, as ``feed.feed`` would in one go, yielding to the
    event loop every ``HISTORY_SLICE_SECONDS``. Stops at an item that is still going on (it stays
    live); a paint in between that fed the rest leaves nothing for the next slice."""
    began = time.perf_counter()
    while feed.printed < len(items):
        printed = feed.printed
        feed.feed(items[: printed + 1], look())
        if feed.printed == printed:
            return
        if time.perf_counter() - began > HISTORY_SLICE_SECONDS:
            await asyncio.sleep(0)
            began = time.perf_counter()


__all__ = ["HISTORY_SLICE_SECONDS", "write_in_slices"]
