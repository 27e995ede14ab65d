"""Dialog: the frame every dialog draws in (title, content, hint line), fitted to the terminal.

A dialog is at most as tall as its ``max-height`` (app.tcss: 80% of the terminal's rows
full-screen, all of them inline, where it takes the editor's place). On a small terminal
its list (the child with class ``picker-list``) gives up rows first, down to ``MIN_LIST_ROWS``,
so the title and the hint line stay in view and the list scrolls; a taller terminal gives the
rows back, up to the list's own height (``list_height.VISIBLE_ROWS``).
"""

from __future__ import annotations

from textual import events
from textual.containers import Vertical
from textual.geometry import Size
from textual.widget import Widget

from tau_coding.tui.screens.list_height import VISIBLE_ROWS

MIN_LIST_ROWS = 5  # with an OptionList's border: three rows of it


def list_rows(dialog_rows: int, other_rows: int, lists: int = 1) -> int:
    """The rows each of ``lists`` lists may take in a dialog at most ``dialog_rows`` tall whose
    other parts (title, hint, fields, its border and padding) take ``other_rows``."""
    room = dialog_rows - other_rows
    return max(MIN_LIST_ROWS, min(VISIBLE_ROWS, room // max(1, lists)))


def _rows(widget: Widget) -> int:
    margin = widget.styles.margin
    return widget.outer_size.height + margin.top + margin.bottom


class Dialog(Vertical):
    """A ``Vertical`` with class ``dialog`` whose list fits (the module docstring)."""

    DEFAULT_CLASSES = "dialog"

    def on_mount(self) -> None:
        self.call_after_refresh(self.fit)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.fit)

    def fit(self, terminal_rows: int | None = None) -> None:
        """Size the list for a terminal ``terminal_rows`` tall (default: the app's now)."""
        if not self.is_attached:
            return
        shown = [child for child in self.children if child.display]
        lists = [child for child in shown if child.has_class("picker-list")]
        if not lists:
            return
        other = self.styles.gutter.height + sum(_rows(child) for child in shown if child not in lists)
        other += sum(_rows(child) - child.outer_size.height for child in lists)  # the lists' margins
        terminal = Size(self.app.size.width, terminal_rows or self.app.size.height)
        most = self.styles.max_height
        tallest = int(most.resolve(terminal, terminal)) if most is not None else terminal.height
        rows = list_rows(tallest, other, len(lists))
        for rows_list in lists:
            if rows_list.styles.max_height is None or rows_list.styles.max_height.value != rows:
                rows_list.styles.max_height = rows


__all__ = ["MIN_LIST_ROWS", "Dialog", "list_rows"]
