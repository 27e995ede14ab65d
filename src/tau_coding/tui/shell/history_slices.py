"""Writing a resumed session's history into the scrollback without holding up the keyboard.

Rendering the newest items of a long session for the scrollback takes longer than starting the
app (Rich renders each answer's Markdown and each tool's output), so the app paints its editor
first and renders the history after, a slice at a time: between slices the event loop runs, and
keys typed meanwhile are echoed. What is rendered is held back and written in one piece at the
end: each write above the inline region makes Textual draw the whole region again, which per
slice cost more than the slices saved.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from tau_coding.tui.items import Item
from tau_coding.tui.shell.inline import Look, ScrollbackFeed

HISTORY_SLICE_SECONDS = 0.008  # the longest the history is rendered before giving way to keys


class HeldWriter:
    """Writes through to ``write``, except between ``hold`` and ``release``, when what is written
    is kept, in order, and written in one piece by ``release``."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._held: list[str] | None = None

    def __call__(self, text: str) -> None:
        if self._held is None:
            self._write(text)
        else:
            self._held.append(text)

    def hold(self) -> None:
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Write what was held (if anything) and write through from now on."""
        held, self._held = self._held, None
        if held:
            self._write("".join(held))


async def write_in_slices(
    feed: ScrollbackFeed,
    items: Sequence[Item],
    look: Callable[[], Look],
    writer: HeldWriter,
    slice_seconds: float = HISTORY_SLICE_SECONDS,
) -> None:
    """Write ``items`` from ``feed.printed`` on through ``feed`` (whose output goes to ``writer``),
    as ``feed.feed`` would in one go, yielding to the event loop every ``slice_seconds`` of
    rendering. Stops at an item that is still going on (it stays live)."""
    writer.hold()
    try:
        began = time.perf_counter()
        while feed.printed < len(items):
            printed = feed.printed
            feed.feed(items[: printed + 1], look())
            if feed.printed == printed:
                return
            if time.perf_counter() - began >= slice_seconds:
                await asyncio.sleep(0)
                began = time.perf_counter()
    finally:
        writer.release()


__all__ = ["HISTORY_SLICE_SECONDS", "HeldWriter", "write_in_slices"]
