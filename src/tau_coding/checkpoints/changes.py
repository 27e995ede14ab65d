"""What differs between two snapshots: files, and lines added and removed. Pure.

Parses ``git diff-tree -r -z --no-renames --raw --numstat`` output (raw records first, then
numstat records, both NUL-separated), so one git call gives status, mode and line counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

ChangeKind = Literal["added", "modified", "deleted"]
_KINDS: dict[str, ChangeKind] = {"A": "added", "D": "deleted"}


@dataclass(frozen=True, slots=True)
class FileChange:
    """One path that differs; ``added``/``removed`` are None for a binary file."""

    path: str
    kind: ChangeKind
    added: int | None
    removed: int | None


def parse_diff(output: bytes) -> list[FileChange]:
    """The changes in ``diff-tree --raw --numstat -z`` output, in git's (path) order."""
    fields = output.split(b"\0")
    kinds: dict[str, ChangeKind] = {}
    order: list[str] = []
    counts: dict[str, tuple[int | None, int | None]] = {}
    i = 0
    while i < len(fields):
        field = fields[i]
        if field.startswith(b":"):  # ":old_mode new_mode old_sha new_sha STATUS" then the path
            status = field.rsplit(b" ", 1)[-1][:1].decode()
            path = fields[i + 1].decode("utf-8", "surrogateescape")
            kinds[path] = _KINDS.get(status, "modified")
            order.append(path)
            i += 2
            continue
        if field:
            added, removed, path_bytes = field.split(b"\t", 2)
            path = path_bytes.decode("utf-8", "surrogateescape")
            counts[path] = (_count(added), _count(removed))
        i += 1
    return [FileChange(path, kinds[path], *counts.get(path, (None, None))) for path in order]


def _count(text: bytes) -> int | None:
    return None if text == b"-" else int(text)


def totals(changes: Sequence[FileChange]) -> tuple[int, int]:
    """Lines added and removed over all text files."""
    return sum(c.added or 0 for c in changes), sum(c.removed or 0 for c in changes)


def summary(changes: Sequence[FileChange]) -> str:
    """``3 files, +12 -4`` (``no changes`` when there are none)."""
    if not changes:
        return "no changes"
    added, removed = totals(changes)
    files = "1 file" if len(changes) == 1 else f"{len(changes)} files"
    return f"{files}, +{added} -{removed}"


def describe(change: FileChange) -> str:
    """One line for a diff listing: ``+3 -1 src/app.py`` (``binary`` for binary files)."""
    counts = "binary" if change.added is None else f"+{change.added} -{change.removed}"
    mark = {"added": "A", "deleted": "D", "modified": "M"}[change.kind]
    return f"{mark} {counts:>12}  {change.path}"


__all__ = ["ChangeKind", "FileChange", "describe", "parse_diff", "summary", "totals"]
