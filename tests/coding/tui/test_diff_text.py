"""An edit's diff reads as Pi and Claude Code show it: each line with its number in the file,
no file headers, a mark between hunks; anything that is not a unified diff shows unchanged."""

from __future__ import annotations

from tau_coding.tools.diff import unified_diff
from tau_coding.tui.diff_text import DiffColors, diff_text, numbered_diff
from tau_coding.tui.state import ToolItem
from tau_coding.tui.widgets.tool_row import body

COLORS = DiffColors(added="green", removed="red", hunk="blue")


def test_each_line_carries_its_number_in_the_old_or_new_file() -> None:
    diff = "--- a/calc.py\n+++ b/calc.py\n@@ -1,3 +1,4 @@\n def add(a, b):\n-    return a - b\n+    # fixed\n+    return a + b\n x = 1\n"
    assert numbered_diff(diff).split("\n") == [
        " 1 def add(a, b):",
        "-2     return a - b",
        "+2     # fixed",
        "+3     return a + b",
        " 4 x = 1",
    ]


def test_hunks_are_separated_and_numbers_share_one_width() -> None:
    diff = "@@ -8,2 +8,2 @@\n a\n-b\n+B\n@@ -99,2 +99,3 @@\n y\n+z\n+zz\n"
    assert numbered_diff(diff).split("\n") == [
        "   8 a",
        "-  9 b",
        "+  9 B",
        "   ⋯",
        "  99 y",
        "+100 z",
        "+101 zz",
    ]


def test_a_diff_made_by_the_edit_tool_numbers_from_its_hunk_headers() -> None:
    before = "".join(f"line {n}\n" for n in range(1, 31))
    after = before.replace("line 20\n", "line twenty\n")
    rows = numbered_diff(unified_diff(before, after, "f.txt")).split("\n")
    assert "-20 line 20" in rows and "+20 line twenty" in rows
    assert not any(row.startswith(("---", "+++", "@@")) for row in rows)


def test_text_that_is_not_a_unified_diff_is_shown_as_it_is() -> None:
    patch = "*** Begin Patch\n*** Update File: a.py\n-x\n+y\n*** End Patch"
    assert numbered_diff(patch) == patch


def test_added_and_removed_lines_take_the_theme_colours() -> None:
    text = diff_text(numbered_diff("@@ -1 +1 @@\n-old\n+new\n"), COLORS)
    assert text.plain == "-1 old\n+1 new"
    assert [(text.plain[s.start : s.end], s.style) for s in text.spans] == [
        ("-1 old", "red"),
        ("+1 new", "green"),
    ]


def test_an_edit_row_shows_the_numbered_diff() -> None:
    item = ToolItem("c1", "edit", {"path": "calc.py"}, status="ok", details={"diff": "@@ -4 +4 @@\n-a\n+b\n"})
    shown = body(item, expanded=False, colors=COLORS)
    assert shown is not None and shown.plain == "-4 a\n+4 b"  # type: ignore[union-attr]
