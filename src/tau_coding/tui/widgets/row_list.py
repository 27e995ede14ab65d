"""RowList: a focusable list of one-line rows that draws only the rows in view.

OptionList measures and wraps every option when it is filled, shown or resized, which made a
10,000-entry /tree take about a second to open. Here a row is one line, so the list's height
is its row count without looking at a row, and a row's text is built only when the row is
drawn: opening costs the same for ten rows or a hundred thousand.

A caller may rely on: ``set_rows`` replaces the rows (``prompt(i)`` gives row ``i``'s text
and is called only for rows being drawn); ``highlighted`` is None exactly when there are no
rows, otherwise clamped into range and kept in view; up/down move by one and wrap around,
page up/down move by the visible height, home/end go to the ends; Enter or a click posts
``Selected``. A row wider than the list is cut with an ellipsis. The look (border, highlight
and hover colours) is OptionList's, so a screen can swap one for the other without changing
how it looks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual


def _no_prompt(index: int) -> Text:
    return Text()


class RowList(ScrollView, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("pagedown", "page_down", "Page Down", show=False),
        Binding("pageup", "page_up", "Page Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Select", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"row-list--row", "row-list--highlighted", "row-list--hover"}

    DEFAULT_CSS = """
    RowList {
        height: auto;
        max-height: 100%;
        color: $foreground;
        overflow-x: hidden;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .row-list--highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .row-list--hover {
            background: $block-hover-background;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .row-list--highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """

    highlighted: reactive[int | None] = reactive(None)

    class Selected(Message):
        """Enter or a click on row ``index``."""

        def __init__(self, row_list: RowList, index: int) -> None:
            super().__init__()
            self.row_list = row_list
            self.index = index

        @property
        def control(self) -> RowList:
            return self.row_list

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._count = 0
        self._prompt: Callable[[int], Text] = _no_prompt
        self._hover: int | None = None  # the row under the mouse
        self._reveal = False  # the highlight still has to be scrolled into view

    # -- rows -------------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return self._count

    def set_rows(self, count: int, prompt: Callable[[int], Text], highlighted: int | None = None) -> None:
        """Show ``count`` rows, row ``i`` reading ``prompt(i)``; highlight ``highlighted``
        (clamped; the first row when None)."""
        self._count = count
        self._prompt = prompt
        self.virtual_size = Size(0, count)
        self.highlighted = None  # so the assignment below always reaches the watcher
        self.highlighted = 0 if highlighted is None else highlighted
        self.refresh()

    def prompt(self, index: int) -> Text:
        """The text row ``index`` shows (before any cut to the list's width)."""
        return self._prompt(index)

    # -- drawing ----------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if not 0 <= index < self._count:
            return Strip.blank(width, self.get_visual_style("row-list--row").rich_style)
        if index == self.highlighted:
            style = self.get_visual_style("row-list--row", "row-list--highlighted")
        elif index == self._hover:
            style = self.get_visual_style("row-list--row", "row-list--hover")
        else:
            style = self.get_visual_style("row-list--row")
        content = Content.from_rich_text(self._prompt(index), console=self.app.console)
        strips = Visual.to_strips(self, content, width, 1, style)
        strip = strips[0] if strips else Strip.blank(width)
        return strip.extend_cell_length(width, style.rich_style).apply_meta({"row": index})

    # -- the highlight ----------------------------------------------------------------------------

    def validate_highlighted(self, highlighted: int | None) -> int | None:
        if not self._count:
            return None
        return None if highlighted is None else max(0, min(highlighted, self._count - 1))

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        for index in (old, new):
            if index is not None:
                self.refresh_line(index)
        self._reveal = not self.scroll_to_highlight()

    def scroll_to_highlight(self) -> bool:
        """Scroll as little as needed to bring the highlighted row into view; False when the
        list has no size yet to scroll in."""
        index, height = self.highlighted, self.scrollable_content_region.height
        if height <= 0:
            return False
        if index is not None:
            top = round(self.scroll_y)
            if index < top:
                self.scroll_to(y=index, animate=False, force=True)
            elif index >= top + height:
                self.scroll_to(y=index - height + 1, animate=False, force=True)
        return True

    def render_lines(self, crop: Region) -> list[Strip]:
        # A highlight set before the first layout (a screen fills its list on mount) is scrolled
        # to here, once the list has a size, so the first frame already shows it; waiting for
        # the Resize message would paint the top rows first and the highlight a frame later.
        if self._reveal and self.scroll_to_highlight():
            self._reveal = False
        return super().render_lines(crop)

    def on_resize(self) -> None:
        self.scroll_to_highlight()

    # -- keys and mouse ---------------------------------------------------------------------------

    def action_cursor_down(self) -> None:
        if self._count:
            self.highlighted = 0 if self.highlighted is None else (self.highlighted + 1) % self._count

    def action_cursor_up(self) -> None:
        if self._count:
            self.highlighted = (
                self._count - 1 if self.highlighted is None else (self.highlighted - 1) % self._count
            )

    def action_page_down(self) -> None:
        self.highlighted = (self.highlighted or 0) + max(self.scrollable_content_region.height, 1)

    def action_page_up(self) -> None:
        self.highlighted = (self.highlighted or 0) - max(self.scrollable_content_region.height, 1)

    def action_first(self) -> None:
        self.highlighted = 0

    def action_last(self) -> None:
        self.highlighted = self._count - 1

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Selected(self, self.highlighted))

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("row")
        if isinstance(index, int) and 0 <= index < self._count:
            self.highlighted = index
            self.action_select()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        index = event.style.meta.get("row")
        self._set_hover(index if isinstance(index, int) else None)

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def _set_hover(self, index: int | None) -> None:
        if index != self._hover:
            for row in (self._hover, index):
                if row is not None:
                    self.refresh_line(row)
            self._hover = index
