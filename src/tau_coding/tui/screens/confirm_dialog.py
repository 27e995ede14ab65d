"""A yes/no question (an extension asking before a risky step). Dismisses with True or False."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from tau_coding.tui.screens.dialog import Dialog


class ConfirmDialog(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, message: str) -> None:
        super().__init__(classes="picker")
        self._title = title
        self._message = message

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static(self._title, classes="dialog-title", markup=False)
            if self._message:
                yield Static(self._message, id="confirm-message", markup=False)
            yield Static("y yes · n or Esc no", classes="dialog-hint")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
