"""Size a picker's list without measuring every row.

With ``height: auto`` Textual wraps every option to add up the list's height, which takes
about a second for a 10,000-entry session tree. A list longer than the visible rows gets a
fixed height instead; a short one stays ``auto`` so the dialog hugs it.
"""

from __future__ import annotations

from textual.widget import Widget

VISIBLE_ROWS = 16


def fit_height(rows_list: Widget, rows: int) -> None:
    rows_list.styles.height = VISIBLE_ROWS if rows > VISIBLE_ROWS else "auto"
