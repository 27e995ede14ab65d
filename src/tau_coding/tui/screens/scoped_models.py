"""/scoped-models: choose the models Ctrl+P cycles through. Space toggles, Enter saves, Esc
leaves the scope as it was. Dismisses with the chosen labels (empty: cycle through all)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import SelectionList, Static

from tau_coding.tui.screens.dialog import Dialog


class ScopedModels(ModalScreen[list[str] | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Close"),
        Binding("enter", "save", "Save", priority=True),
    ]

    def __init__(self, models: Sequence[str], scoped: Sequence[str]) -> None:
        super().__init__(classes="picker")
        self._models = list(models)
        self._scoped = set(scoped)

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static("Models for Ctrl+P", classes="dialog-title")
            yield SelectionList[str](
                *[(m, m, m in self._scoped) for m in self._models], id="scoped-list", classes="picker-list"
            )
            yield Static(
                "Space toggle · Enter save · Esc cancel (none chosen: all models)", classes="dialog-hint"
            )

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def action_save(self) -> None:
        chosen = set(self.query_one(SelectionList).selected)
        self.dismiss([m for m in self._models if m in chosen])

    def action_back(self) -> None:
        self.dismiss(None)
