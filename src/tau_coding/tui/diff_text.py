"""A unified diff as styled text in the current theme's colours. Pure.

Added lines take the theme's ``success`` colour, removed lines its ``error`` colour, hunk
headers its ``primary``: colours each theme picks to read well on its own background (the
ANSI greens of a generic code theme do not on a light one).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text


@dataclass(frozen=True, slots=True)
class DiffColors:
    added: str
    removed: str
    hunk: str


def diff_text(diff: str, colors: DiffColors) -> Text:
    """``diff`` line by line: ``+``/``-`` lines coloured, file headers bold, hunks in ``hunk``."""
    out = Text()
    for index, line in enumerate(diff.split("\n")):
        if index:
            out.append("\n")
        if line.startswith(("+++", "---")):
            out.append(line, style="bold")
        elif line.startswith("+"):
            out.append(line, style=colors.added)
        elif line.startswith("-"):
            out.append(line, style=colors.removed)
        elif line.startswith("@@"):
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
