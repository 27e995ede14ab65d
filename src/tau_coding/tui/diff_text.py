"""A unified diff as a reader follows it, styled in the current theme's colours. Pure.

``numbered_diff`` gives each line its number in the file, as Pi and Claude Code show an edit:
the old file's number for a removed line, the new file's otherwise, and ``⋯`` between hunks;
the file headers go (the tool row already names the file). ``diff_text`` colours the result:
added lines take the theme's ``success`` colour, removed lines its ``error`` colour, hunk
marks its ``primary``: colours each theme picks to read well on its own background (the ANSI
greens of a generic code theme do not on a light one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
HUNK_MARK = "⋯"


@dataclass(frozen=True, slots=True)
class DiffColors:
    added: str
    removed: str
    hunk: str


def numbered_diff(diff: str) -> str:
    """``diff``'s lines as ``<sign><number> <text>`` (module notes), numbers right-aligned to
    one width. Text that is not a unified diff (no ``@@ -a,b +c,d @@`` hunk) comes back as it
    is, so an extension's own patch format still shows."""
    rows = diff.rstrip("\n").split("\n")
    hunks = [(i, m) for i, row in enumerate(rows) if (m := _HUNK.match(row))]
    if not hunks:
        return diff
    last = max(max(int(m[1]) + int(m[2] or 1), int(m[3]) + int(m[4] or 1)) for _, m in hunks)
    width = len(str(last))
    out: list[str] = []
    old = new = 0
    for row in rows[hunks[0][0] :]:
        if match := _HUNK.match(row):
            if out:
                out.append(f" {HUNK_MARK:>{width}}")
            old, new = int(match[1]), int(match[3])
        elif row.startswith("-"):
            out.append(f"-{old:>{width}} {row[1:]}")
            old += 1
        elif row.startswith("+"):
            out.append(f"+{new:>{width}} {row[1:]}")
            new += 1
        elif row.startswith("\\"):  # "\ No newline at end of file"
            out.append(f" {'':>{width}} {row}")
        else:
            out.append(f" {new:>{width}} {row[1:]}")
            old += 1
            new += 1
    return "\n".join(out)


def diff_text(numbered: str, colors: DiffColors) -> Text:
    """``numbered`` (``numbered_diff``'s lines) styled: ``+``/``-`` lines coloured, the marks
    between hunks in ``hunk``."""
    out = Text()
    for index, line in enumerate(numbered.split("\n")):
        if index:
            out.append("\n")
        if line.startswith("+"):
            out.append(line, style=colors.added)
        elif line.startswith("-"):
            out.append(line, style=colors.removed)
        elif line.strip() == HUNK_MARK or line.startswith("@@"):
            out.append(line, style=colors.hunk)
        else:
            out.append(line)
    return out


def contrast_ratio(foreground: tuple[int, int, int], background: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21; 4.5 is the floor for body text)."""
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
