"""/rewind: pick an earlier prompt's checkpoint, newest first, each with what changed since.

Dismisses with the chosen checkpoint id, or None on Esc.
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
from tau_coding.tui.rewind_port import RewindRow
from tau_coding.tui.screens.dialog import Dialog


def row_text(row: RewindRow) -> str:
    """``fix the parser · 2 files +10 -3`` (the prompt cut to fit)."""
    label = " ".join(safe_text(row.label).split())[:70] or "(empty)"
    if not row.files:
        return f"{label} · no changes since"
    files = "1 file" if row.files == 1 else f"{row.files} files"
    return f"{label} · {files} +{row.added} -{row.removed}"


class RewindPicker(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Close")]

    def __init__(self, rows: Sequence[RewindRow]) -> None:
        super().__init__(classes="picker")
        self.rows = list(reversed(rows))

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static("Rewind to before which prompt?", classes="dialog-title")
            yield OptionList(
                *[Content(row_text(r)) for r in self.rows], id="rewind-list", classes="picker-list"
            )
            yield Static("Enter choose · Esc close", classes="dialog-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0 if self.rows else None
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.rows[event.option_index].checkpoint_id)

    def action_back(self) -> None:
        self.dismiss(None)
