"""Inline mode: finished items go into the terminal's scrollback, the app keeps only what is live.

Textual runs the app in a region at the bottom of the terminal (``App.run(inline=True)``) and
redraws only that region. ``ScrollbackFeed`` writes each settled item once, in order, above the
region (``scrollback.py`` renders it), and the transcript drops its view: the number of mounted
widgets stays at the handful still changing however long the session grows, so a frame costs
the same at request 1,000 as at request 1, and what was said stays in the terminal after Tau exits.

This module is the one place that knows how Textual's inline driver positions its region: the cursor rests at ``App._previous_cursor_position`` inside it, and each frame moves back
to its top-left corner by that much before drawing. Writing there, then telling the app the
cursor rests at the new corner, makes the next frame draw the region below the text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.app import App
from textual.drivers.linux_inline_driver import LinuxInlineDriver
from textual.geometry import Offset
from textual.theme import Theme

from tau_coding.tui.items import Item
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


def _region_moved(app: App[Any]) -> None:
    """The cursor is at the region's new top-left corner: the next frame draws all of it there."""
    app._previous_cursor_position = Offset(0, 0)
    app._previous_inline_height = None
    app.screen.refresh()


class InlineDriver(LinuxInlineDriver):
    """Textual's inline driver, but a resize does not clear the whole screen, the conversation
    on it included (the app clears the region: ``clear_resized_region``)."""

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


class ScrollbackFeed:
    """Writes the transcript's settled items to the scrollback, each once and in order.

    ``printed`` is the index of the first item not written yet: the transcript shows the items
    from there on.
    """

    def __init__(self, write: Callable[[str], None], after: Callable[[Item, int], str] | None = None) -> None:
        """``after``: what is written below an item (``scrollback_text``'s hook: its images)."""
        self._write = write
        self._after = after
        self.printed = 0
        self._skipped = 0
        self._prefix = ""

    def start(self, count: int, *, new_screen: bool = False) -> None:
        """A session was loaded with ``count`` items: only its newest ``HISTORY_ITEMS`` are written.
        ``new_screen``: the transcript was replaced (/resume, /tree, /rewind...): the screen is
        cleared first (the terminal keeps what it showed in its scrollback, where it has one)."""
        self._skipped = max(0, count - HISTORY_ITEMS)
        self.printed = self._skipped
        self._prefix = "\x1b[2J\x1b[H" if new_screen else ""

    def feed(
        self,
        items: Sequence[Item],
        *,
        width: int,
        palette: Palette,
        color_system: str | None,
        show_thinking: bool,
        expand_tools: bool,
        everything: bool = False,
    ) -> None:
        """Write the settled items from ``printed`` on (``everything``: all of them, settled or not,
        as they stand: the app is closing)."""
        stop = len(items) if everything else settled(items, self.printed)
        if stop <= self.printed:
            if self._prefix:
                self._write(self._prefix)
                self._prefix = ""
            return
        text = scrollback_text(
            items[self.printed : stop],
            width,
            palette,
            color_system=color_system,
            show_thinking=show_thinking,
            expand_tools=expand_tools,
            after=self._after,
        )
        if self._skipped:
            note = f"▲ {self._skipped} earlier items (/tree lists them; --fullscreen scrolls them)"
            text = f"\x1b[2m{note}\x1b[0m\r\n{text}"
            self._skipped = 0
        self.printed = stop
        self._write(self._prefix + text)
        self._prefix = ""


__all__ = [
    "HISTORY_ITEMS",
    "InlineDriver",
    "ScrollbackFeed",
    "above_inline_region",
    "clear_resized_region",
    "palette_of",
]
