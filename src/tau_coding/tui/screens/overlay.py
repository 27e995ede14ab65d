"""An extension's widget shown as an overlay: a modal over the conversation, which stays visible.

``tau.ui.custom(make, overlay=True)`` in the TUI: a ``ModalScreen`` the extension made is shown
as it is; any other widget is put in an ``Overlay``, centred in a bordered box. The widget ends
the overlay with ``self.screen.dismiss(value)``; Esc dismisses it with None.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget


class Overlay(ModalScreen[Any]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]
    DEFAULT_CSS = """
    Overlay { align: center middle; }
    Overlay > Vertical { width: auto; height: auto; max-width: 90%; max-height: 90%;
                         border: round $accent; background: $surface; padding: 0 1; }
    Overlay > Vertical > * { width: auto; height: auto; }
    """

    def __init__(self, content: Widget) -> None:
        super().__init__()
        self._content = content

    def compose(self) -> ComposeResult:
        with Vertical():
            yield self._content

    def action_close(self) -> None:
        self.dismiss(None)
