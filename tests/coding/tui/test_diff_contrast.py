"""Diffs stay readable in every Tau theme: added and removed lines meet WCAG's 4.5:1 against
the theme's background (the light theme drew added lines at 1.95:1 with ANSI bright green)."""

from __future__ import annotations

import pytest
from rich.color import Color
from rich.style import Style
from textual.theme import Theme

from tau_coding.tui.diff_text import DiffColors, contrast_ratio
from tau_coding.tui.state import ToolItem
from tau_coding.tui.theme import THEMES
from tau_coding.tui.widgets.tool_row import body

DIFF = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b"


def _rgb(color: str | Color | None) -> tuple[int, int, int]:
    parsed = color if isinstance(color, Color) else Color.parse(str(color))
    triplet = parsed.get_truecolor()
    return triplet.red, triplet.green, triplet.blue


def _drawn_color(theme: Theme, marker: str) -> tuple[int, int, int]:
    """The colour the tool row gives the diff line starting with ``marker``, as drawn."""
    colors = DiffColors(added=theme.success or "", removed=theme.error or "", hunk=theme.primary)
    item = ToolItem("c1", "edit", {"path": "calc.py"}, status="ok", details={"diff": DIFF})
    text = body(item, expanded=True, colors=colors)
    plain = str(text.plain)  # type: ignore[union-attr]
    start = plain.index("\n" + marker + "2     return") + 1
    span = next(s for s in text.spans if s.start == start)  # type: ignore[union-attr]
    style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
    assert style.color is not None
    return _rgb(style.color)


def test_the_ratio_is_wcags() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((96, 203, 0), (245, 245, 247)) == pytest.approx(2.2, abs=0.3)  # the old green


@pytest.mark.parametrize("theme", THEMES, ids=[t.name for t in THEMES])
@pytest.mark.parametrize("marker", ["+", "-"], ids=["added", "removed"])
def test_diff_lines_meet_4_5_to_1_on_the_themes_background(theme: Theme, marker: str) -> None:
    drawn = _drawn_color(theme, marker)
    for ground in (theme.background, theme.surface):
        ratio = contrast_ratio(drawn, _rgb(ground))
        assert ratio >= 4.5, f"{theme.name} {marker} {drawn} on {ground}: {ratio:.2f}:1"
