"""A read-only panel over the transcript (/hotkeys, /session); Escape or q closes it."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class TextPanel(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, title: str, body: RenderableType) -> None:
        super().__init__(classes="panel")
        self._title = title
        self._body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Static(self._title, classes="dialog-title", markup=False)
            yield Static(self._body, classes="panel-body", markup=False)
            yield Static("Esc to close", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
