"""Where the user-perceived characters of a line begin and end, for the editor's cursor (pure).

A character on screen can be several code points: a letter and its combining accents, an emoji
with a skin tone or a variation selector, a family or profession emoji joined by zero-width
joiners, a flag made of two regional indicators. The editor's arrows, Backspace and Delete
step over such a cluster as a whole, as terminals and other editors do, instead of leaving
the cursor inside it (where a Backspace would take a family apart one person at a time).

This is the part of Unicode's extended grapheme cluster rules (UAX #29) that such text needs:
extending marks and joiners stay with what they follow, the code point after a zero-width
joiner joins it, and regional indicators pair up. Written here rather than taken from a
library: the one that implements all of UAX #29 (``regex``'s ``\\X``) would be imported on the
first arrow key, which must answer within a frame.
"""

from __future__ import annotations

import unicodedata

ZWJ = "\u200d"


def _extends(char: str) -> bool:
    """``char`` belongs to the cluster before it (Extend, SpacingMark, ZWJ in UAX #29)."""
    code = ord(char)
    if code < 0x300:
        return False  # (ASCII and Latin-1: the usual text, told at once)
    if char == ZWJ or 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
        return True  # variation selectors, emoji skin tones, emoji tag characters (flags of regions)
    if 0xE0100 <= code <= 0xE01EF:
        return True  # variation selectors supplement
    return unicodedata.category(char) in ("Mn", "Me", "Mc")


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _joined(line: str, at: int) -> bool:
    """The code point at ``at`` continues the cluster that the code point before it is in."""
    if at <= 0 or at >= len(line):
        return False
    char = line[at]
    if _extends(char) or line[at - 1] == ZWJ:
        return True
    if _regional(char) and _regional(line[at - 1]):
        # the second of a pair: an odd number of indicators runs up to and including ``at``
        run = 0
        while at - run >= 0 and _regional(line[at - run]):
            run += 1
        return run % 2 == 0
    return False


def cluster_start(line: str, column: int) -> int:
    """The start of the cluster before ``column`` (where the cursor goes on the left arrow)."""
    if column <= 0:
        return 0
    at = min(column, len(line)) - 1
    while at > 0 and _joined(line, at):
        at -= 1
    return at


def cluster_end(line: str, column: int) -> int:
    """The end of the cluster at ``column`` (where the cursor goes on the right arrow)."""
    if column >= len(line):
        return len(line)
    at = column + 1
    while at < len(line) and _joined(line, at):
        at += 1
    return at


__all__ = ["cluster_end", "cluster_start"]
