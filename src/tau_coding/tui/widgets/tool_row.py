"""A tool call as one compact row: status, name, what it does, elapsed time; output below.

Collapsed, the row shows a preview (the head of a result, the tail of a running command's
output); expanded (click, or Ctrl+O for all) it shows everything, and an edit whose details
carry a diff shows the diff highlighted.
"""

from __future__ import annotations

import time

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tau_coding.tui.state import ToolItem
from tau_coding.tui.summaries import args_summary, diff_from_details, elapsed, preview
from tau_coding.tui.terminal_text import safe_text

MARKS = {"pending": "○", "running": "●", "ok": "✓", "error": "✗"}
FULL_LIMIT = 200_000
SHOW_ELAPSED_AFTER = 1.0


def header_text(item: ToolItem, now: float) -> Text:
    text = Text()
    text.append(MARKS[item.status] + " ", style="bold")
    text.append(item.name, style="bold")
    summary = args_summary(item.name, item.args)
    if summary:
        text.append(" " + safe_text(summary))
    if item.started is not None:
        seconds = (item.ended if item.ended is not None else now) - item.started
        if seconds >= SHOW_ELAPSED_AFTER:
            text.append(f"  {elapsed(seconds)}", style="dim")
    return text


def body(item: ToolItem, expanded: bool) -> RenderableType | None:
    diff = diff_from_details(item.details) if item.status == "ok" else None
    if diff is not None:
        from rich.syntax import Syntax  # pygments: loaded with the first diff, not at launch

        shown = safe_text(diff if expanded else preview(diff, lines=16))
        return Syntax(shown, "diff", theme="ansi_dark", background_color="default", word_wrap=True)
    if not item.output.strip():
        return None
    if expanded:
        return Text(safe_text(item.output[:FULL_LIMIT]).rstrip("\n"))
    return Text(safe_text(preview(item.output, tail=item.status == "running")))


class ToolRow(Vertical):
    def __init__(self, item: ToolItem) -> None:
        super().__init__(classes=f"tool -{item.status}")
        self.item = item
        self.expanded = False
        self._status = item.status

    def compose(self) -> ComposeResult:
        yield Static(header_text(self.item, time.monotonic()), classes="tool-header")
        yield Static(classes="tool-body")

    def on_mount(self) -> None:
        self._render_body()

    def sync(self) -> None:
        item = self.item
        if item.status != self._status:
            self.remove_class(f"-{self._status}")
            self.add_class(f"-{item.status}")
            self._status = item.status
        self.tick(time.monotonic())
        self._render_body()

    def tick(self, now: float) -> None:
        """Refresh the header (the elapsed time of a running tool)."""
        self.query_one(".tool-header", Static).update(header_text(self.item, now))

    def set_expanded(self, expanded: bool) -> None:
        if expanded != self.expanded:
            self.expanded = expanded
            self._render_body()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.set_expanded(not self.expanded)

    def _render_body(self) -> None:
        shown = body(self.item, self.expanded)
        widget = self.query_one(".tool-body", Static)
        widget.display = shown is not None
        widget.update(shown if shown is not None else "")
