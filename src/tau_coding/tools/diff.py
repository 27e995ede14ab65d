"""Unified diffs of an edit, for the UI (``details.diff``) and for humans reading a transcript.

Edits change a few lines of possibly large files, so the common head and tail are found
with C-speed string comparisons and cut off before difflib compares anything: the cost
follows the size of the change, not the size of the file.
"""

from __future__ import annotations

import difflib

_STEP = 64 * 1024


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b``."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i : i + _STEP] == b[i : i + _STEP]:
        i += _STEP
    if i >= n:
        return n
    lo, hi = i, min(i + _STEP, n)
    while lo < hi:  # binary search inside the first differing chunk
        mid = (lo + hi + 1) // 2
        if a[i:mid] == b[i:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def first_changed_line(old: str, new: str) -> int | None:
    """The 1-based number, in ``new``, of the first line that differs; None when equal."""
    if old == new:
        return None
    at = _common_prefix(old, new)
    start = new.rfind("\n", 0, at) + 1
    number = new.count("\n", 0, start) + 1
    old_end, new_end = old.find("\n", start), new.find("\n", start)
    same_line = (
        old[start : old_end if old_end >= 0 else None] == new[start : new_end if new_end >= 0 else None]
    )
    return number + 1 if same_line else number


def _range(start: int, count: int) -> str:
    """A hunk range in unified-diff form: 1-based start, or the line before when empty."""
    if count == 1:
        return f"{start + 1}"
    if count == 0:
        return f"{start},0"
    return f"{start + 1},{count}"


def _emit(line: str, mark: str, out: list[str]) -> None:
    out.append(mark + line)
    if not line.endswith("\n"):
        out.append("\n\\ No newline at end of file\n")


def _after_lines(text: str, start: int, count: int) -> int:
    """The offset just past the ``count``-th newline at or after ``start`` (or the end)."""
    at = start
    for _ in range(count):
        found = text.find("\n", at)
        if found < 0:
            return len(text)
        at = found + 1
    return at


def unified_diff(old: str, new: str, path: str, context: int = 3) -> str:
    """A standard unified diff (``--- a/path``/``+++ b/path``, ``@@`` hunks) of two LF texts."""
    if old == new:
        return ""
    head = _common_prefix(old, new)
    tail = _common_prefix(old[::-1], new[::-1])
    tail = min(tail, min(len(old), len(new)) - head)
    start = old.rfind("\n", 0, head) + 1
    for _ in range(context):
        if start > 0:
            start = old.rfind("\n", 0, start - 1) + 1
    old_end, new_end = len(old) - tail, len(new) - tail
    # Both texts share old[old_end:]; extend over the rest of that line plus `context` lines.
    extra = _after_lines(old, old_end, context + 1) - old_end if old_end < len(old) else 0
    a = old[start : old_end + extra].splitlines(keepends=True)
    b = new[start : new_end + extra].splitlines(keepends=True)
    offset = old.count("\n", 0, start)
    out = [f"--- a/{path}\n", f"+++ b/{path}\n"]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(offset + i1, i2 - i1)} +{_range(offset + j1, j2 - j1)} @@\n")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                for line in a[x1:x2]:
                    _emit(line, " ", out)
                continue
            for line in a[x1:x2]:
                _emit(line, "-", out)
            for line in b[y1:y2]:
                _emit(line, "+", out)
    return "".join(out)
