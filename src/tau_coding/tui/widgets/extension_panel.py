"""Extensions' widgets (``tau.set_widget``), above the editor: the task list is one of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.widgets import Static

MAX_LINES = 12  # a long list must not push the editor off the screen


def panel_text(widgets: Mapping[str, Sequence[str]]) -> Text:
    """Every widget's lines, in the order they were first set; at most ``MAX_LINES`` in all."""
    lines = [line for block in widgets.values() for line in block]
    shown = lines[:MAX_LINES]
    text = Text("\n".join(shown))
    if len(lines) > len(shown):
        text.append(f"\n… {len(lines) - len(shown)} more", style="dim italic")
    return text


class ExtensionPanel(Static):
    """Widgets above the editor (``extension-panel``), or below it (``extension-below``)."""

    def __init__(self, panel_id: str = "extension-panel") -> None:
        super().__init__(id=panel_id)
        self.display = False

    def show(self, widgets: Mapping[str, Sequence[str]]) -> None:
        self.display = any(widgets.values())
        self.update(panel_text(widgets))


class ChromeLines(Static):
    """Lines an extension put in Tau's header (above the transcript) or in place of its footer."""

    def __init__(self, widget_id: str) -> None:
        super().__init__(id=widget_id)
        self.display = False

    def show_lines(self, lines: Sequence[str] | None) -> None:
        self.display = bool(lines)
        self.update(Text("\n".join(lines or ())))
