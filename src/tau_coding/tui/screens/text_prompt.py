"""Ask for one line (an API key for /login: masked). Dismisses with the text, or None on Esc."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tau_coding.tui.screens.dialog import Dialog


class TextPrompt(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Close")]

    def __init__(self, title: str, *, password: bool = False) -> None:
        super().__init__(classes="picker")
        self._title = title
        self._password = password

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static(self._title, classes="dialog-title", markup=False)
            yield Input(password=self._password, id="prompt-input")
            yield Static("Enter confirm · Esc cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_back(self) -> None:
        self.dismiss(None)
