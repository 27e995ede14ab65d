"""Unified diffs of an edit, for the UI (``details.diff``) and for humans reading a transcript.

Edits change a few lines of possibly large files, so the common head and tail are cut off
before difflib compares anything: the cost follows the size of the change, not the file.
"""

from __future__ import annotations

import difflib


def first_changed_line(old: str, new: str) -> int | None:
    """The 1-based number, in ``new``, of the first line that differs; None when equal."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    for number, (a, b) in enumerate(zip(old_lines, new_lines, strict=False), start=1):
        if a != b:
            return number
    if len(old_lines) == len(new_lines):
        return None
    return min(len(old_lines), len(new_lines)) + 1


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


def unified_diff(old: str, new: str, path: str, context: int = 3) -> str:
    """A standard unified diff (``--- a/path``/``+++ b/path``, ``@@`` hunks) of two LF texts."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    lo = max(0, head - context)
    a_mid, b_mid = a[lo : len(a) - max(0, tail - context)], b[lo : len(b) - max(0, tail - context)]
    if a_mid == b_mid:
        return ""
    out = [f"--- a/{path}\n", f"+++ b/{path}\n"]
    matcher = difflib.SequenceMatcher(None, a_mid, b_mid, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(lo + i1, i2 - i1)} +{_range(lo + j1, j2 - j1)} @@\n")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                for line in a_mid[x1:x2]:
                    _emit(line, " ", out)
                continue
            for line in a_mid[x1:x2]:
                _emit(line, "-", out)
            for line in b_mid[y1:y2]:
                _emit(line, "+", out)
    return "".join(out)
