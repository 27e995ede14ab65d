"""/fork: pick one of your earlier messages; a new session starts with what came before it.

Dismisses with the chosen message's entry id, or None on Esc. Newest message first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.port import ForkPoint
from tau_coding.tui.screens.dialog import Dialog


class ForkPicker(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Close")]

    def __init__(self, points: Sequence[ForkPoint]) -> None:
        super().__init__(classes="picker")
        self.points = list(reversed(points))

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static("Fork from which message?", classes="dialog-title")
            yield OptionList(
                *[Content(" ".join(safe_text(p.text).split())[:90] or "(empty)") for p in self.points],
                id="fork-list",
                classes="picker-list",
            )
            yield Static(
                "Enter fork (the message comes back to the editor) · Esc close", classes="dialog-hint"
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0 if self.points else None
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.points[event.option_index].entry_id)

    def action_back(self) -> None:
        self.dismiss(None)
