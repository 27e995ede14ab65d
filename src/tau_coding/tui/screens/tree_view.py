"""/tree: the session tree, one row per entry, the active branch marked.

``●`` marks entries on the active branch and ``▶`` the current position; other branches show
``○``. Depth grows only where the conversation branched. Dismisses with a ``TreeChoice`` or
None. The leaf's row is highlighted on opening.

Keys on the list: Enter moves there; S moves there and has the branch left behind
summarised; L labels the highlighted entry (an empty label clears it); ``/`` opens the search
field above the list; F cycles the filter (default → no tools → user → labelled → all →
default). Letters and ``/`` act only while the list has focus, so they can be typed into the
search and label fields.

Search: as you type, the rows narrow to those whose text or label holds every word of the
query, in any case. Enter goes back to the list, keeping the search, with the highlight on the
row highlighted before ``/`` if it matches, else on the first match. Search and filter
combine. The status line names a filter other than the default and says how many rows match.

Esc does one thing at a time: it cancels a label being typed; else it clears an active search
(from the search field the highlight goes back to where it was before ``/``; from the list it
stays on the row you are on, so you can find a row and then see it among all the others);
else it closes the screen. A filter stays until F changes it.

While a search is active the rows are drawn flat: matches come from all over the tree, and
indentation relative to rows that are not shown says little while it costs width the match
needs; the markers still tell the active branch from the others. A filter alone keeps the
indentation, since its rows still read as the tree.

Only the rows in view are built and drawn (a ``RowList`` over the port's ``TreeRows``), so a
100,000-entry session opens in well under a second; a row wider than the dialog is cut with an
ellipsis.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.port import TreeFilter, TreePort, TreeRow, TreeRows
from tau_coding.tui.screens.dialog import Dialog
from tau_coding.tui.screens.list_height import fit_height
from tau_coding.tui.tree_port import TREE_FILTERS, search_words
from tau_coding.tui.widgets.row_list import RowList

FILTER_NAMES: dict[TreeFilter, str] = {
    "default": "default",
    "no-tools": "no tools",
    "user": "user messages",
    "labelled": "labelled",
    "all": "all entries",
}


@dataclass(frozen=True, slots=True)
class TreeChoice:
    entry_id: str
    summarize: bool = False


def row_text(row: TreeRow, *, indent: bool = True) -> Text:
    marker = "▶" if row.is_leaf else "●" if row.on_path else "○"
    text = Text("  " * row.depth if indent else "")
    text.append(f"{marker} ", style="bold" if row.on_path else "dim")
    text.append(safe_text(row.text), style="" if row.on_path else "dim")
    if row.label:
        text.append(f"  [{safe_text(row.label)}]", style="bold yellow")
    return text


class TreeScreen(ModalScreen[TreeChoice | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Close"),
        Binding("l", "label", "Label"),
        Binding("s", "summarize", "Go there with a summary"),
        Binding("slash", "search", "Search"),
        Binding("f", "cycle_filter", "Filter"),
    ]

    def __init__(self, port: TreePort) -> None:
        super().__init__(classes="picker")
        self._port = port
        self.rows = TreeRows.of()
        self.filter: TreeFilter = "default"
        self._query = ""
        self._matches: list[int] | None = None  # indices into ``rows`` while a search is active
        self._before_search: str | None = None  # the entry highlighted when / was pressed
        self._labelling: str | None = None

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static("Session tree", classes="dialog-title")
            yield RowList(id="tree-list", classes="picker-list")
            yield Input(placeholder="label (empty clears)", id="tree-label", classes="-hidden")
            yield Static("", id="picker-status", markup=False)
            yield Static(
                "Enter go there · S go there, summarising the branch you leave · L label · / search"
                " · F filter · Esc close   ▶ here  ● this branch",
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.refill()
        self.query_one(RowList).focus()

    # -- the rows ---------------------------------------------------------------------------------

    def refill(self, keep: str | None = None, message: str = "") -> None:
        """Read the rows again under the filter and search again, highlighting ``keep``'s row
        when it is listed (else the first match while searching, else the leaf's row);
        ``message`` joins the status line."""
        self.rows = self._port.tree(self.filter)
        self._show(keep, message)

    def _show(self, keep: str | None, message: str = "") -> None:
        rows, rows_list = self.rows, self.query_one(RowList)
        matches = self._matches = rows.find(self._query) if search_words(self._query) else None
        fit_height(rows_list, len(rows))  # by the unsearched count, so the dialog holds still as you type
        if matches is None:
            rows_list.set_rows(len(rows), lambda index: row_text(rows[index]), self._start(keep))
        else:
            rows_list.set_rows(
                len(matches), lambda index: row_text(rows[matches[index]], indent=False), self._start(keep)
            )
        self._show_status(message)

    def _start(self, keep: str | None) -> int | None:
        position = None if keep is None else self.rows.position(keep)
        matches = self._matches
        if matches is not None:
            at = len(matches) if position is None else bisect_left(matches, position)
            return at if at < len(matches) and matches[at] == position else 0
        if position is not None:
            return position
        return len(self.rows) - 1 if self.rows.leaf_index is None else self.rows.leaf_index

    def _show_status(self, message: str = "") -> None:
        parts = [f"Filter: {FILTER_NAMES[self.filter]}"] if self.filter != "default" else []
        if not self.rows:
            parts.append("The session is empty." if self.filter == "default" else "No entries")
        elif self._matches is not None:
            found, total = len(self._matches), len(self.rows)
            parts.append(f"{found:,} of {total:,} entries match" if found else "No entries match")
        if message:
            parts.append(message)
        self.query_one("#picker-status", Static).update(" · ".join(parts))

    @property
    def highlighted(self) -> TreeRow | None:
        return self._row_at(self.query_one(RowList).highlighted)

    def _row_at(self, index: int | None) -> TreeRow | None:
        """The row the list shows at ``index`` (the list shows only the matches while searching)."""
        if index is None:
            return None
        if self._matches is not None:
            index = self._matches[index] if 0 <= index < len(self._matches) else -1
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def _highlighted_id(self) -> str | None:
        row = self.highlighted
        return None if row is None else row.entry_id

    def _list_has_focus(self) -> bool:
        return self.query_one(RowList).has_focus

    # -- keys on the list -------------------------------------------------------------------------

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        row = self._row_at(event.index)
        if row is not None:
            self.dismiss(TreeChoice(row.entry_id))

    def action_summarize(self) -> None:
        row = self.highlighted
        if row is not None and self._list_has_focus():
            self.dismiss(TreeChoice(row.entry_id, summarize=True))

    def action_cycle_filter(self) -> None:
        if self._list_has_focus():
            self.filter = TREE_FILTERS[(TREE_FILTERS.index(self.filter) + 1) % len(TREE_FILTERS)]
            self.refill(self._highlighted_id())

    # -- search -----------------------------------------------------------------------------------

    async def action_search(self) -> None:
        if not self._list_has_focus():
            return
        self._before_search = self._highlighted_id()
        field = self._search_field()
        if field is None:  # mounted on first use: one widget less to build makes opening faster
            field = Input(placeholder="search (every word, any case)", id="tree-search")
            await self.query_one(".dialog", Vertical).mount(field, before=self.query_one(RowList))
        field.remove_class("-hidden")
        field.focus()

    def _search_field(self) -> Input | None:
        fields = self.query("#tree-search").results(Input)
        return next(fields, None)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "tree-search" and event.value != self._query:
            self._query = event.value
            self._show(self._before_search)

    def _clear_search(self, keep: str | None) -> None:
        self._query = ""  # first, so the field's Changed for the emptied value changes nothing
        field = self._search_field()
        if field is not None:
            field.value = ""
            field.add_class("-hidden")
        self.query_one(RowList).focus()
        self._show(keep)

    # -- labels -----------------------------------------------------------------------------------

    def action_label(self) -> None:
        row = self.highlighted
        if row is None or not self._list_has_focus():
            return
        self._labelling = row.entry_id
        field = self.query_one("#tree-label", Input)
        field.value = row.label or ""
        field.remove_class("-hidden")
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "tree-search":
            if self._matches is None:
                event.input.add_class("-hidden")
            self.query_one(RowList).focus()
        else:
            self._finish_label(event.value, save=True)

    def _finish_label(self, value: str, *, save: bool) -> None:
        entry_id, self._labelling = self._labelling, None
        self.query_one("#tree-label", Input).add_class("-hidden")
        self.query_one(RowList).focus()
        if entry_id is not None and save:
            result = self._port.set_label(entry_id, value or None)
            self.refill(entry_id, result.message)

    # -- Esc --------------------------------------------------------------------------------------

    def action_back(self) -> None:
        if self._labelling is not None:
            self._finish_label("", save=False)
        elif (field := self._search_field()) is not None and field.has_focus:
            self._clear_search(self._before_search)
        elif self._matches is not None:
            self._clear_search(self._highlighted_id())
        else:
            self.dismiss(None)
