"""Inline mode: finished items go into the terminal's scrollback, the app keeps only what is live.

Textual runs the app in a region at the bottom of the terminal (``App.run(inline=True)``) and
redraws only that region. ``ScrollbackFeed`` writes each settled item once, in order, above the
region (``scrollback.py`` renders it), and the transcript drops its view: the number of mounted
widgets stays at the handful still changing however long the session grows, so a frame costs
the same at request 1,000 as at request 1, and what was said stays in the terminal after Tau exits.
When how the written items look changes (Ctrl+O, Ctrl+T, the theme, the terminal's width), the
feed clears screen and scrollback and writes them all again (``reprint``, ``reprint_soon``).

This module is the one place that knows how Textual's inline driver positions its region: the cursor rests at ``App._previous_cursor_position`` inside it, and each frame moves back
to its top-left corner by that much before drawing. Writing there, then telling the app the
cursor rests at the new corner, makes the next frame draw the region below the text.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from textual.app import App
from textual.drivers.linux_inline_driver import LinuxInlineDriver
from textual.geometry import Offset
from textual.theme import Theme

from tau_coding.tui.items import Item
from tau_coding.tui.shell.escape_input import QuickEscape
from tau_coding.tui.shell.scrollback import Palette, scrollback_text, settled

HISTORY_ITEMS = 80  # of a resumed session, the newest items written at start (the rest: /tree)


def above_inline_region(app: App[Any]) -> Callable[[str], None]:
    """A writer of text above ``app``'s inline region (nothing while it has no inline driver)."""

    def write(text: str) -> None:
        driver = app._driver
        if driver is None or not driver.is_inline:
            return
        y = app._previous_cursor_position.y
        up = f"\x1b[{y}A" if y > 0 else ""
        # To the region's corner, then each line is erased whole and written, and what is left
        # below is cleared at the end. Not "clear from the corner" first: with the region at the
        # screen's top-left, tmux takes that for a clear screen and copies the region into its
        # history. Not "erase to the end of the line" after the text: tmux keeps such a line as
        # wide as it was and rewraps it into an extra blank row when the terminal narrows.
        lines = text.replace("\r\n", "\r\n\x1b[2K")
        driver.write(f"{up}\r\x1b[2K{lines}\x1b[J")
        _region_moved(app)

    return write


def clear_resized_region(app: App[Any], old_width: int, new_width: int) -> None:
    """The terminal was resized: clear what is left of the region as drawn at ``old_width``.

    A terminal that rewraps its lines (tmux, VTE, iTerm2) turns each of the region's full-width
    rows into ``ceil(old / new)`` rows when it narrows; the cursor moves with its text. Textual
    would clear the whole screen instead, taking the conversation on it away (``InlineDriver``).
    """
    driver = app._driver
    if driver is None or not driver.is_inline:
        return
    x, y = app._previous_cursor_position
    # At most as far up as the region's top: better a copy of the region left above than a
    # line of the conversation erased. (Where a terminal leaves the cursor after rewrapping
    # varies: tmux may also scroll rows into its history, when they no longer fit.)
    rows = y * -(-old_width // new_width) + x // new_width if 0 < new_width < old_width else y
    up = f"\x1b[{rows}A" if rows > 0 else ""
    driver.write(f"{up}\r\x1b[J")
    _region_moved(app)


@contextmanager
def lent_terminal(app: App[Any]) -> Iterator[None]:
    """The terminal goes to another program (``$EDITOR``, the shell after Ctrl+Z) and comes back.

    Textual's inline driver cannot be suspended (``App.suspend`` raises), and a program started
    anyway fought its input thread for the keys: what was typed in vi reached the prompt and
    Enter sent it. Here the region is cleared from its top-left corner, the driver leaves
    application mode (the keys and the terminal's modes are the other program's), and on the
    way back it enters it again and the next frame draws the whole region where the cursor is.
    """
    driver = app._driver
    if driver is None or not driver.is_inline:
        yield
        return
    y = app._previous_cursor_position.y
    driver.write((f"\x1b[{y}A" if y > 0 else "") + "\r\x1b[J")
    driver.stop_application_mode()
    try:
        yield
    finally:
        driver.start_application_mode()
        _region_moved(app)


def _region_moved(app: App[Any]) -> None:
    """The cursor is at the region's new top-left corner: the next frame draws all of it there."""
    app._previous_cursor_position = Offset(0, 0)
    app._previous_inline_height = None
    app.screen.refresh()


class InlineDriver(QuickEscape, LinuxInlineDriver):
    """Textual's inline driver, but a resize does not clear the whole screen, the conversation
    on it included (the app clears the region: ``clear_resized_region``), and Esc comes at once
    (escape_input.py)."""

    def write(self, data: str) -> None:
        if data != "\x1b[2J":  # what Textual's SIGWINCH handler writes, and nothing else does
            super().write(data)


def palette_of(theme: Theme) -> Palette:
    """The colours of ``theme`` that the scrollback uses."""
    return Palette(
        primary=theme.primary,
        secondary=theme.secondary or theme.primary,
        success=theme.success or "green",
        warning=theme.warning or "yellow",
        error=theme.error or "red",
        muted="dim",
        surface=theme.surface or "default",
    )


@dataclass(frozen=True, slots=True)
class Look:
    """How items are drawn into the scrollback: the terminal's width and what the app shows."""

    width: int
    palette: Palette
    color_system: str | None = "truecolor"
    show_thinking: bool = False
    expand_tools: bool = False
    thinking_hint: str | None = None  # what hidden thinking says (an extension's; None: Tau's)


CLEAR_ALL = "\x1b[2J\x1b[3J\x1b[H"  # the screen, then the scrollback; the cursor to the top
SLICE_SECONDS = 0.008  # a reprint renders this long at most between two turns of the event loop


class ScrollbackFeed:
    """Writes the transcript's settled items to the scrollback, each once and in order, and
    writes them all again when how they look changed (``reprint``).

    ``printed`` is the index of the first item not written yet: the transcript shows the items
    from there on.
    """

    def __init__(self, write: Callable[[str], None], after: Callable[[Item, int], str] | None = None) -> None:
        """``after``: what is written below an item (``scrollback_text``'s hook: its images)."""
        self._write = write
        self._after = after
        self.printed = 0
        self._first = 0  # the first item of the session written (older ones: the note)
        self._skipped = 0
        self._prefix = ""
        self._generation = 0  # bumped by each reprint and each start: a reprint under way stops
        self.written = False  # anything (items, the note) was written since the last start

    def start(self, count: int, *, new_screen: bool = False) -> None:
        """A session was loaded with ``count`` items: only its newest ``HISTORY_ITEMS`` are written.
        ``new_screen``: the transcript was replaced (/resume, /tree, /rewind...): the screen is
        cleared first (the terminal keeps what it showed in its scrollback, where it has one)."""
        self._first = self._skipped = max(0, count - HISTORY_ITEMS)
        self.printed = self._skipped
        self._prefix = "\x1b[2J\x1b[H" if new_screen else ""
        self._generation += 1
        self.written = False

    def feed(self, items: Sequence[Item], look: Look, *, everything: bool = False) -> None:
        """Write the settled items from ``printed`` on (``everything``: all of them, settled or not,
        as they stand: the app is closing)."""
        stop = len(items) if everything else settled(items, self.printed)
        if stop <= self.printed:
            if self._prefix:
                self._write(self._prefix)
                self._prefix = ""
            return
        text = _text(items[self.printed : stop], look, self._after)
        if self._skipped:
            text = _note(self._skipped) + text
            self._skipped = 0
        self.printed = stop
        self._write(self._prefix + text)
        self._prefix = ""
        self.written = True

    async def reprint(self, items: Sequence[Item], look: Look) -> bool:
        """Clear the screen and the scrollback (the terminal's, above Tau's start too) and write
        every item written so far again, as ``look`` draws them; the live region is drawn below.

        The items are rendered a slice of ``SLICE_SECONDS`` at a time between turns of the event
        loop, so keys keep being read, and written in one piece at the end. Returns False when it
        gave way to a newer reprint or a new session (``start``) before writing anything."""
        self._generation += 1
        generation = self._generation
        parts = [_note(self._first)] if self._first else []
        index = self._first
        began = time.perf_counter()
        while index < self.printed:
            parts.append(_text(items[index : index + 1], look, self._after))
            index += 1
            if time.perf_counter() - began > SLICE_SECONDS:
                await asyncio.sleep(0)
                if generation != self._generation:
                    return False
                began = time.perf_counter()
        self._write(CLEAR_ALL + "".join(parts))
        self._prefix = ""
        self._skipped = 0
        self.written = True
        return True


def reprint_soon(app: App[Any], feed: ScrollbackFeed, items: Sequence[Item], look: Look) -> None:
    """Write ``items`` into a cleared scrollback again, as ``look`` draws them, in a worker of
    ``app``, once its screen is laid out at ``look.width``; it replaces one under way."""
    if app.is_running:
        app.run_worker(_reprint_laid_out(app, feed, items, look), group="reprint", exclusive=True)


async def _reprint_laid_out(app: App[Any], feed: ScrollbackFeed, items: Sequence[Item], look: Look) -> None:
    # Textual lays the screen out at a new size when it is next idle; the region drawn below
    # the text must be drawn at that size: drawn at the old one, the terminal would wrap it.
    for _ in range(100):
        if app.screen.region.width == look.width:
            break
        await asyncio.sleep(0.01)
    await feed.reprint(items, look)


def _text(items: Sequence[Item], look: Look, after: Callable[[Item, int], str] | None) -> str:
    return scrollback_text(
        items,
        look.width,
        look.palette,
        color_system=look.color_system,
        show_thinking=look.show_thinking,
        expand_tools=look.expand_tools,
        thinking_hint=look.thinking_hint,
        after=after,
    )


def _note(skipped: int) -> str:
    note = f"▲ {skipped} earlier items (/tree lists them; --fullscreen scrolls them)"
    return f"\x1b[2m{note}\x1b[0m\r\n"


__all__ = [
    "CLEAR_ALL",
    "HISTORY_ITEMS",
    "InlineDriver",
    "Look",
    "ScrollbackFeed",
    "above_inline_region",
    "clear_resized_region",
    "palette_of",
    "reprint_soon",
]
