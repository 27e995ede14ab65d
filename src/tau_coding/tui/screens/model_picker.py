"""Pick a model from the labels the session offers; type to filter (fuzzy)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from tau_coding.tui.completion import fuzzy_score
from tau_coding.tui.screens.dialog import Dialog


def filter_models(models: Sequence[str], query: str) -> list[str]:
    scored = [(score, m) for m in models if (score := fuzzy_score(query, m)) is not None]
    return [m for _, m in sorted(scored, key=lambda entry: -entry[0])] if query else list(models)


class ModelPicker(ModalScreen[str | None]):
    """Dismisses with the chosen label, or None on Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Close"),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(self, models: Sequence[str], current: str) -> None:
        super().__init__(classes="picker")
        self._models = list(models)
        self._current = current
        self._shown: list[str] = []

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static("Select a model", classes="dialog-title")
            yield Input(placeholder="search…", id="model-search")
            yield OptionList(id="model-list", classes="picker-list")
            yield Static("type to search · ↑↓ move · Enter choose · Esc close", classes="dialog-hint")

    def on_mount(self) -> None:
        self._refill("")
        self.query_one(Input).focus()

    def _refill(self, query: str) -> None:
        self._shown = filter_models(self._models, query)
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Content(f"{m}  (current)" if m == self._current else m) for m in self._shown])
        if self._shown:
            options.highlighted = 0

    def on_input_changed(self, event: Input.Changed) -> None:
        self._refill(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._choose(self.query_one(OptionList).highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option_index)

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if self._shown:
            options.highlighted = ((options.highlighted or 0) + step) % len(self._shown)

    def _choose(self, index: int | None) -> None:
        if index is not None and 0 <= index < len(self._shown):
            self.dismiss(self._shown[index])

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
