"""Plan text replacements: find each ``oldText`` exactly once, or explain why not.

Pure functions over the file's text (BOM removed, line endings as they are on disk). Line
breaks in ``oldText`` match any line break, so a model that writes ``\\n`` can edit a CRLF
file; the replacement takes the line ending of the span it replaces, so the rest of the
file is never re-normalised. When no exact match exists, a tolerant match that ignores
differences in whitespace runs, trailing spaces, quote and dash styles is tried; it too
must be unique, and only the matched span changes.
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass

_BREAK = r"(?:\r\n|\r|\n)"
_SPACES = " \t\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_SPACE_CLASS = f"[{_SPACES}]"
_EQUIVALENT = {
    **dict.fromkeys("'\u2018\u2019\u201a\u201b\u2032", "['\u2018\u2019\u201a\u201b\u2032]"),
    **dict.fromkeys('"\u201c\u201d\u201e\u201f\u2033', '["\u201c\u201d\u201e\u201f\u2033]'),
    **dict.fromkeys(
        "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "[-\u2010\u2011\u2012\u2013\u2014\u2015\u2212]"
    ),
}


class EditError(ValueError):
    """An edit that cannot be applied; the message is one the model can act on."""


@dataclass(frozen=True, slots=True)
class Replacement:
    start: int
    end: int
    new_text: str
    index: int  # position of the edit in the request, 0-based
    fuzzy: bool


def normalize_breaks(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def dominant_line_ending(text: str) -> str:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    best = max((lf, "\n"), (crlf, "\r\n"), (cr, "\r"), key=lambda pair: pair[0])
    return best[1] if best[0] > 0 else "\n"


def _exact_pattern(old: str) -> str:
    return _BREAK.join(re.escape(line) for line in old.split("\n"))


def _fuzzy_line(line: str, lead: bool, trail: bool) -> str:
    body = line.strip(_SPACES)
    parts: list[str] = []
    previous_space = False
    for char in body:
        if char in _SPACES:
            if not previous_space:
                parts.append(f"{_SPACE_CLASS}+")
            previous_space = True
            continue
        previous_space = False
        parts.append(_EQUIVALENT.get(char, re.escape(char)))
    optional = f"{_SPACE_CLASS}*"
    return (optional if lead else "") + "".join(parts) + (optional if trail else "")


def _fuzzy_pattern(old: str) -> str:
    """Whitespace- and quote-tolerant pattern; the span starts and ends where ``old`` does.

    Indentation and trailing spaces are optional at inner line boundaries; at the outer edges
    only when ``old`` itself has them, so a match never swallows text the model did not quote.
    """
    lines = old.split("\n")
    last = len(lines) - 1
    return _BREAK.join(
        _fuzzy_line(
            line,
            i > 0 or (line != "" and line[0] in _SPACES),
            i < last or (line != "" and line[-1] in _SPACES),
        )
        for i, line in enumerate(lines)
    )


def _find_all(pattern: str, text: str) -> list[tuple[int, int]]:
    """Every match start, overlapping ones included, with the end of the match found there."""
    by_end: dict[int, int] = {}
    for found in re.finditer(f"(?=({pattern}))", text):
        # Starts inside one run of optional spaces find the same passage: keep the earliest.
        by_end.setdefault(found.end(1), found.start(1))
    return sorted((start, end) for end, start in by_end.items())


def _line_of(text: str, offset: int) -> int:
    return normalize_breaks(text[:offset]).count("\n") + 1


def _nearest(text: str, old: str) -> str:
    """The file's lines most like the start of ``old``, numbered, for a not-found message."""
    lines = normalize_breaks(text).split("\n")
    wanted = [line for line in old.split("\n") if line.strip()]
    if not wanted or not lines:
        return ""
    probe = wanted[0].strip()
    stripped = [line.strip() for line in lines[:50_000]]
    close = difflib.get_close_matches(probe, stripped, n=1, cutoff=0.5)
    if not close:
        return ""
    at = stripped.index(close[0])
    shown = lines[at : at + min(len(old.split("\n")), 8)]
    numbered = "\n".join(f"{at + 1 + i:>6}| {line}" for i, line in enumerate(shown))
    return f" The closest text is at line {at + 1}:\n{numbered}"


def _ending_in(text: str, start: int, end: int, fallback: str) -> str:
    found = re.search(_BREAK, text[start:end])
    return found.group(0) if found else fallback


def find_replacement(text: str, old: str, new: str, index: int, total: int, shown: str) -> Replacement:
    """Locate one edit in ``text``; raise EditError when it is missing, ambiguous or a no-op."""
    label = f"edit {index + 1} of {total}" if total > 1 else "the edit"
    old_n, new_n = normalize_breaks(old), normalize_breaks(new)
    if not old_n:
        raise EditError(f"oldText of {label} is empty; give the exact text to replace.")
    if old_n == new_n:
        raise EditError(f"oldText and newText of {label} are identical; nothing would change.")
    fuzzy = False
    first = text.find(old_n) if "\r" not in text else -2
    if first == -1:
        spans = []
    elif first >= 0 and text.find(old_n, first + 1) < 0:
        spans = [(first, first + len(old_n))]
    else:
        spans = _find_all(_exact_pattern(old_n), text)
    if not spans:
        spans = _find_all(_fuzzy_pattern(old_n), text)
        fuzzy = True
    if not spans:
        raise EditError(f"Could not find oldText of {label} in {shown} (0 matches).{_nearest(text, old_n)}")
    if len(spans) > 1:
        lines = ", ".join(str(_line_of(text, start)) for start, _ in spans[:10])
        kind = "similar passages" if fuzzy else "occurrences"
        raise EditError(
            f"Found {len(spans)} {kind} of oldText of {label} in {shown} (at lines {lines}); "
            "add surrounding lines to make it unique."
        )
    start, end = spans[0]
    ending = _ending_in(text, start, end, dominant_line_ending(text))
    return Replacement(start, end, new_n.replace("\n", ending), index, fuzzy)


def plan_edits(text: str, edits: list[tuple[str, str]], shown: str) -> list[Replacement]:
    """All replacements, each located in the original text, sorted by position, none overlapping."""
    plans = [find_replacement(text, old, new, i, len(edits), shown) for i, (old, new) in enumerate(edits)]
    plans.sort(key=lambda plan: plan.start)
    for before, after in itertools.pairwise(plans):
        if after.start < before.end:
            raise EditError(
                f"Edits {before.index + 1} and {after.index + 1} overlap in {shown}; merge them into one edit."
            )
    return plans


def apply_replacements(text: str, plans: list[Replacement]) -> str:
    """``text`` with every planned span replaced (``plans`` sorted and disjoint)."""
    pieces: list[str] = []
    cursor = 0
    for plan in plans:
        pieces.append(text[cursor : plan.start])
        pieces.append(plan.new_text)
        cursor = plan.end
    pieces.append(text[cursor:])
    return "".join(pieces)
