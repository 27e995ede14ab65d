"""Walk a tree the way ripgrep does by default: hidden files in, ``.git`` and ignored paths out.

The pure-Python fallback for grep and find when no ``rg`` binary is available. It honours
every ``.gitignore`` from the search root down (not those above it, nor git's global
excludes), and does not follow symlinked directories, so a link loop cannot trap it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from tau_coding.tools.globs import IgnoreRule, is_ignored, parse_gitignore

SKIPPED_DIRECTORIES = frozenset({".git"})


def _rules_in(directory: Path, base: str) -> list[IgnoreRule]:
    try:
        text = (directory / ".gitignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return parse_gitignore(text, base)


def walk_files(root: Path) -> Iterator[str]:
    """Paths of the files under ``root``, relative and ``/``-separated, one directory at a time."""
    stack: list[tuple[Path, str, list[IgnoreRule]]] = [(root, "", _rules_in(root, ""))]
    while stack:
        directory, rel_dir, rules = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError:
            continue
        subdirectories: list[tuple[Path, str, list[IgnoreRule]]] = []
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir and entry.name in SKIPPED_DIRECTORIES:
                continue
            if is_ignored(rules, rel, is_dir):
                continue
            if is_dir:
                child = Path(entry.path)
                subdirectories.append((child, rel, rules + _rules_in(child, rel)))
            elif entry.is_file():
                yield rel
        stack.extend(reversed(subdirectories))
