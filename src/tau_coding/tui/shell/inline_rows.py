"""Inline mode: a frame rewrites only the rows of the live region that changed.

Textual's inline driver composes and writes the whole region at every frame (every row of
every widget cut and joined, ~1-3 ms for a 30-row region, and 5 kB to the terminal), even
when only the last line of a streaming answer grew. ``RowsScreen`` keeps that full draw for
the frames that need it (the first, a new layout, a new height or width, the region moved by
text written above it: inline.py) and otherwise composes and writes only the rows inside the
regions Textual marked dirty, each row whole, with relative cursor moves, so the terminal shows
what a full draw would have shown.

Like inline.py, this module knows how Textual's inline driver works: a frame starts with the
cursor at the region's top-left corner (``App._display`` moves it there) and must end there.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from textual import events
from textual._compositor import CompositorUpdate
from textual.geometry import Region, Size
from textual.screen import Screen
from textual.strip import Strip


class ChangedRows(CompositorUpdate):
    """Rows of the inline region, each drawn whole over what the terminal shows there."""

    def __init__(self, rows: dict[int, Strip]) -> None:
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for y in sorted(self.rows):
            yield from self.rows[y]
            yield Segment.line()

    def render_segments(self, console: Console) -> str:
        """From the region's top-left corner, each row in turn, then back to the corner."""
        out: list[str] = []
        at = 0
        for y in sorted(self.rows):
            if y > at:
                out.append(f"\x1b[{y - at}B")  # down, without scrolling: the rows exist
            at = y
            out.append("\r")
            out.append(self.rows[y].render(console))
        out.append(f"\r\x1b[{at}A" if at else "\r")
        return "".join(out)


class RowsScreen(Screen[None]):
    """The app's main screen; inline, a frame redraws the changed rows only (module docstring)."""

    def __init__(self, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._drawn: Size | None = None  # the region as last drawn whole; None: draw it whole

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # A dialog drew over the region meanwhile: the next frame draws all of it. (Textual
        # calls Screen's own handler too, after this one; it asks for that frame.)
        self._drawn = None

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        self._drawn = None  # widgets moved or resized: draw everything
        super()._refresh_layout(size, scroll)

    def _compositor_refresh(self) -> None:
        app = self.app
        if not app.is_inline or self is not app.screen or app._background_screens:
            super()._compositor_refresh()
            return
        size = app.size.with_height(app._get_inline_height())
        if self._drawn != size or app._previous_inline_height != size.height:
            super()._compositor_refresh()  # the whole region, as Textual draws it
            self._drawn = size
            return
        compositor = self._compositor
        rows = sorted(
            {y for region in compositor._dirty_regions for y in region.line_range if 0 <= y < size.height}
        )
        compositor._dirty_regions.clear()
        self._dirty_widgets.clear()
        if rows:
            crop = Region(0, rows[0], size.width, rows[-1] - rows[0] + 1)
            chops = compositor._render_chops(crop, set(rows).__contains__)
            app._display(self, ChangedRows({y: Strip.join(chops[y].values()) for y in rows}))
        app._update_mouse_over(self)
