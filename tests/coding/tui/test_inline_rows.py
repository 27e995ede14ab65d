"""An inline frame that redraws changed rows starts and ends at the region's top-left corner.

Textual moves the cursor to the corner before a frame and computes the next move from there
(inline_rows.py), so a frame that ended anywhere else would draw the next one displaced; the
rows' own pictures are Textual's strips (the tmux inline tests check what the pane shows).
"""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from textual.strip import Strip

from tau_coding.tui.shell.inline_rows import ChangedRows


def _row(text: str) -> Strip:
    return Strip([Segment(text)])


def test_rows_are_written_whole_in_order_with_moves_down_and_the_cursor_ends_at_the_corner() -> None:
    console = Console(color_system=None, width=10)
    update = ChangedRows({3: _row("dd"), 0: _row("aa"), 1: _row("bb")})
    assert update.render_segments(console) == "\raa\x1b[1B\rbb\x1b[2B\rdd\r\x1b[3A"


def test_a_frame_of_the_first_row_only_stays_on_it() -> None:
    console = Console(color_system=None, width=10)
    assert ChangedRows({0: _row("x")}).render_segments(console) == "\rx\r"
