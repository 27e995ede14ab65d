"""A tool call as one compact row: status, name, what it does, elapsed time; output below.

Collapsed, the row shows a preview (the head of a result, the tail of a running command's
output) and how many lines it leaves out; expanded (click, or Ctrl+O for all) it shows
everything (up to ``EXPANDED_LINES``, with the count of the rest). An edit whose details carry
a diff shows the diff, a write the content written, a read the file's text, each highlighted
by the file's extension.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import PurePath

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tau_coding.common.escape_stripping import carriage_returns, safe_text
from tau_coding.common.tool_renderers import rendered_call, rendered_result
from tau_coding.tui.diff_text import DiffColors, diff_text, numbered_diff
from tau_coding.tui.state import ToolItem
from tau_coding.tui.summaries import (
    PREVIEW_CHARS,
    PREVIEW_LINES,
    args_summary,
    diff_from_details,
    elapsed,
    hidden_marker,
    preview,
    preview_parts,
)

MARKS = {"pending": "○", "running": "●", "ok": "✓", "error": "✗"}
FULL_LIMIT = 200_000  # characters of output an expanded row shows at most
EXPANDED_LINES = 2000  # and lines; the count of the rest is shown
SHOW_ELAPSED_AFTER = 1.0
DARK_DIFF = DiffColors(added="green", removed="red", hunk="cyan")


def header_text(item: ToolItem, now: float) -> Text:
    text = Text()
    text.append(MARKS[item.status] + " ", style="bold")
    text.append(item.name, style="bold")
    summary = rendered_call(item.name, item.args) or args_summary(item.name, item.args)
    if summary:
        text.append(" " + safe_text(summary))
    if item.started is not None:
        seconds = (item.ended if item.ended is not None else now) - item.started
        if seconds >= SHOW_ELAPSED_AFTER:
            text.append(f"  {elapsed(seconds)}", style="dim")
    return text


def body(item: ToolItem, expanded: bool, colors: DiffColors = DARK_DIFF) -> RenderableType | None:
    """What shows under the header: a diff for an edit, the content written for a write, the
    file's text highlighted for a read, else the output. Collapsed, a preview and the count of
    lines left out; expanded, everything up to ``EXPANDED_LINES``, with the count of the rest.
    A tool with its own renderer (tool_renderers.py) draws its finished result itself."""
    if item.status in ("ok", "error"):
        own = rendered_result(item.name, item.output, item.details, item.status == "error", expanded)
        if own is not None:
            return Text(safe_text(own))
    diff = diff_from_details(item.details) if item.status == "ok" else None
    if diff is not None:
        diff = numbered_diff(diff)
        shown, hidden = preview_parts(diff[:FULL_LIMIT], EXPANDED_LINES if expanded else 16, FULL_LIMIT)
        return _with_marker(diff_text(safe_text(shown), colors), hidden + _lines_past(diff, FULL_LIMIT))
    path = item.args.get("path") or item.args.get("file_path")
    content = item.args.get("content")
    if item.name == "write" and isinstance(content, str) and item.status != "error":
        return _code(content, _lexer(path), expanded)
    if not item.output.strip():
        return None
    if item.name == "read" and item.status == "ok" and (lexer := _lexer(path)) != "text":
        return _code(item.output, lexer, expanded)
    if expanded:
        shown, hidden = preview_parts(item.output[:FULL_LIMIT], EXPANDED_LINES, FULL_LIMIT)
        return _with_marker(Text(safe_text(shown)), hidden + _lines_past(item.output, FULL_LIMIT))
    # Carriage returns first: a progress bar's redraws are one line, so the preview's head or
    # tail is its last state rather than a cut through all of them.
    return Text(safe_text(preview(carriage_returns(item.output), tail=item.status == "running")))


def _code(code: str, lexer: str, expanded: bool, lines: int = PREVIEW_LINES) -> RenderableType:
    from rich.syntax import Syntax  # pygments: loaded with the first code shown, not at launch

    limit = EXPANDED_LINES if expanded else lines
    shown, hidden = preview_parts(code[:FULL_LIMIT], limit, FULL_LIMIT if expanded else PREVIEW_CHARS)
    syntax = Syntax(safe_text(shown), lexer, theme="ansi_dark", background_color="default", word_wrap=True)
    return _with_marker(syntax, hidden + _lines_past(code, FULL_LIMIT))


def _with_marker(shown: RenderableType, hidden: int) -> RenderableType:
    if not hidden:
        return shown
    return Group(shown, Text(hidden_marker(hidden), style="dim italic"))


def _lines_past(text: str, limit: int) -> int:
    return text.count("\n", limit) if len(text) > limit else 0


def _lexer(path: object) -> str:
    """The Pygments lexer name for ``path``'s extension; ``text`` when unknown."""
    if not isinstance(path, str):
        return "text"
    return _lexer_for_name(PurePath(path).name)


@functools.lru_cache(maxsize=256)
def _lexer_for_name(name: str) -> str:
    from pygments.lexers import get_lexer_for_filename
    from pygments.util import ClassNotFound

    try:
        return str(get_lexer_for_filename(name).aliases[0])
    except (ClassNotFound, IndexError):
        return "text"


class ToolRow(Vertical):
    def __init__(
        self, item: ToolItem, images: Callable[[ToolItem], RenderableType | None] | None = None
    ) -> None:
        """``images``: the result's images, drawn under the body once it has them (transcript.py)."""
        super().__init__(classes=f"tool -{item.status}")
        self.item = item
        self._images = images
        self.expanded = False
        self._status = item.status

    def compose(self) -> ComposeResult:
        yield Static(header_text(self.item, time.monotonic()), classes="tool-header")
        yield Static(classes="tool-body")

    def on_mount(self) -> None:
        self._render_body()

    def recolor(self) -> None:
        """Draw the body again in the app's current theme (after ``/theme``)."""
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
        # The clock's tick may reach a row whose children are not mounted yet (compose shows
        # the header as it is then).
        for header in self.query(".tool-header").results(Static):
            header.update(header_text(self.item, now))

    def set_expanded(self, expanded: bool) -> None:
        if expanded != self.expanded:
            self.expanded = expanded
            self._render_body()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.set_expanded(not self.expanded)

    def _render_body(self) -> None:
        theme = self.app.current_theme
        colors = DiffColors(added=theme.success or "green", removed=theme.error or "red", hunk=theme.primary)
        shown = body(self.item, self.expanded, colors)
        images = self._images(self.item) if self._images is not None else None
        if images is not None:
            shown = images if shown is None else Group(shown, images)
        for widget in self.query(".tool-body").results(Static):  # none yet: on_mount draws it
            widget.display = shown is not None
            widget.update(shown if shown is not None else "")
