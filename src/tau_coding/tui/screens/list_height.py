"""Size a picker's list without measuring every row.

With ``height: auto`` an OptionList wraps every option to add up its height, which takes
about a second for 10,000 options. A list longer than the visible rows gets a fixed height
instead; a short one stays ``auto`` so the dialog hugs it. The /tree RowList knows its height
without measuring, and takes the same sizes so every long list looks alike.
"""

from __future__ import annotations

from textual.widget import Widget

VISIBLE_ROWS = 16


def fit_height(rows_list: Widget, rows: int) -> None:
    rows_list.styles.height = VISIBLE_ROWS if rows > VISIBLE_ROWS else "auto"
