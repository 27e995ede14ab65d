"""Pick one of a few options (an extension's select dialog). Dismisses with it, or None on Esc."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from tau_coding.tui.screens.dialog import Dialog


class ChoicePicker(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Close")]

    def __init__(self, title: str, options: Sequence[str]) -> None:
        super().__init__(classes="picker")
        self._title = title
        self._options = list(options)

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static(self._title, classes="dialog-title", markup=False)
            yield OptionList(*map(Content, self._options), id="choices", classes="picker-list")
            yield Static("Enter choose · Esc cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self._options[event.option_index])

    def action_back(self) -> None:
        self.dismiss(None)
