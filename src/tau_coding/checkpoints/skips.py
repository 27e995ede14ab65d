"""Which files a snapshot leaves out (too large, nested repositories) and the exclude file
that tells git so.

The list is kept in the store (``tau-skipped.json``) and written to the store's own
``info/exclude`` as anchored, escaped paths, so ``git add -A`` never reads those files. A file
that shrinks back under the limit (or disappears) leaves the list at the next snapshot.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tau_agent.atomic_write import atomic_write_bytes

NESTED_REPOSITORY = "nested repository (not included)"


@dataclass(frozen=True, slots=True)
class Skipped:
    """A path left out of a checkpoint, and why (one short phrase)."""

    path: str
    reason: str


def too_large(size: int, limit: int) -> str:
    return f"larger than {limit} bytes ({size} bytes; not included)"


def classify(work_tree: Path, paths: Iterable[str], limit: int) -> dict[str, str]:
    """Of ``paths`` (relative, as git lists them), those to leave out and why."""
    out: dict[str, str] = {}
    for path in paths:
        full = work_tree / path.rstrip("/")
        try:
            info = full.lstat()
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode):
            if (full / ".git").exists():
                out[path.rstrip("/")] = NESTED_REPOSITORY
        elif stat.S_ISREG(info.st_mode) and info.st_size > limit:
            out[path] = too_large(info.st_size, limit)
    return out


def still_skipped(work_tree: Path, skipped: Mapping[str, str], limit: int) -> dict[str, str]:
    """``skipped`` less what no longer needs skipping (gone, or now small enough)."""
    kept: dict[str, str] = {}
    for path, reason in skipped.items():
        full = work_tree / path
        try:
            info = full.lstat()
        except OSError:
            continue
        if reason == NESTED_REPOSITORY:
            if (full / ".git").exists():
                kept[path] = reason
        elif stat.S_ISREG(info.st_mode) and info.st_size > limit:
            kept[path] = too_large(info.st_size, limit)
    return kept


def exclude_line(path: str) -> str:
    """An ignore pattern that matches exactly ``path`` from the top of the tree."""
    escaped = "".join("\\" + ch if ch in "\\*?[]!# " else ch for ch in path)
    return "/" + escaped


class SkipList:
    """The skipped paths of one store, read from and written to its files."""

    def __init__(self, git_dir: Path) -> None:
        self._file = git_dir / "tau-skipped.json"
        self._exclude = git_dir / "info" / "exclude"

    def load(self) -> dict[str, str]:
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def save(self, skipped: Mapping[str, str]) -> None:
        atomic_write_bytes(self._file, json.dumps(dict(sorted(skipped.items()))).encode("utf-8"))
        lines = "".join(exclude_line(path) + "\n" for path in sorted(skipped))
        os.makedirs(self._exclude.parent, exist_ok=True)
        atomic_write_bytes(self._exclude, lines.encode("utf-8", "surrogateescape"))


__all__ = ["NESTED_REPOSITORY", "SkipList", "Skipped", "classify", "exclude_line", "still_skipped"]
