"""/tree: the session tree, one row per entry, the active branch marked.

``●`` marks entries on the active branch and ``▶`` the current position; other branches show
``○``. Enter moves there; S moves there and has the branch left behind summarised; L labels
the highlighted entry (an empty label clears it); Esc closes. Dismisses with a ``TreeChoice``
or None. Depth grows only where the conversation branched. Only the rows in view are built and
drawn (a ``RowList`` over the port's ``TreeRows``), so a 100,000-entry session opens in well
under a second; a row wider than the dialog is cut with an ellipsis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tau_coding.tui.port import SessionPort, TreeRow, TreeRows
from tau_coding.tui.screens.list_height import fit_height
from tau_coding.tui.widgets.row_list import RowList


@dataclass(frozen=True, slots=True)
class TreeChoice:
    entry_id: str
    summarize: bool = False


def row_text(row: TreeRow) -> Text:
    marker = "▶" if row.is_leaf else "●" if row.on_path else "○"
    text = Text("  " * row.depth)
    text.append(f"{marker} ", style="bold" if row.on_path else "dim")
    text.append(row.text, style="" if row.on_path else "dim")
    if row.label:
        text.append(f"  [{row.label}]", style="bold yellow")
    return text


class TreeScreen(ModalScreen[TreeChoice | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Close"),
        Binding("l", "label", "Label"),
        Binding("s", "summarize", "Go there with a summary"),
    ]

    def __init__(self, port: SessionPort) -> None:
        super().__init__(classes="picker")
        self._port = port
        self.rows = TreeRows.of()
        self._labelling: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Session tree", classes="dialog-title")
            yield RowList(id="tree-list", classes="picker-list")
            yield Input(placeholder="label (empty clears)", id="tree-label", classes="-hidden")
            yield Static("", id="picker-status")
            yield Static(
                "Enter go there · S go there, summarising the branch you leave · L label · Esc close"
                "   ▶ here  ● this branch",
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.refill()
        self.query_one(RowList).focus()

    def refill(self) -> None:
        """Read the rows again, keeping the highlighted row (the leaf's on the first fill)."""
        rows_list = self.query_one(RowList)
        keep = rows_list.highlighted if self.rows else None
        self.rows = rows = self._port.tree()
        fit_height(rows_list, len(rows))
        if not rows:
            rows_list.set_rows(0, lambda index: Text())
            self.query_one("#picker-status", Static).update("The session is empty.")
            return
        leaf = len(rows) - 1 if rows.leaf_index is None else rows.leaf_index
        start = leaf if keep is None or keep >= len(rows) else keep
        rows_list.set_rows(len(rows), lambda index: row_text(rows[index]), start)

    @property
    def highlighted(self) -> TreeRow | None:
        index = self.query_one(RowList).highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        if event.index < len(self.rows):
            self.dismiss(TreeChoice(self.rows[event.index].entry_id))

    def action_summarize(self) -> None:
        row = self.highlighted
        if row is not None and self._labelling is None:
            self.dismiss(TreeChoice(row.entry_id, summarize=True))

    def action_label(self) -> None:
        row = self.highlighted
        if row is None:
            return
        self._labelling = row.entry_id
        field = self.query_one("#tree-label", Input)
        field.value = row.label or ""
        field.remove_class("-hidden")
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._finish_label(event.value, save=True)

    def _finish_label(self, value: str, *, save: bool) -> None:
        entry_id, self._labelling = self._labelling, None
        self.query_one("#tree-label", Input).add_class("-hidden")
        self.query_one(RowList).focus()
        if entry_id is not None and save:
            result = self._port.set_label(entry_id, value or None)
            self.query_one("#picker-status", Static).update(result.message)
            self.refill()

    def action_back(self) -> None:
        if self._labelling is not None:
            self._finish_label("", save=False)
        else:
            self.dismiss(None)
