"""Turn a path the model wrote into a path on disk, and describe symlinks honestly.

The working directory is where relative paths start, not a sandbox. Models sometimes echo the
``@file`` mention syntax or paste names with exotic spaces; both are undone here so the tool
finds the file the user meant.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_UNICODE_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")


def normalize_path_text(raw: str) -> str:
    """The path text with a leading ``@`` stripped and Unicode spaces turned into plain spaces."""
    text = _UNICODE_SPACES.sub(" ", raw.strip())
    if text.startswith("@"):
        text = text[1:]
    return text


def resolve_path(cwd: Path, raw: str) -> Path:
    """An absolute path: ``~`` expanded, relative paths joined to ``cwd``; symlinks not resolved."""
    text = normalize_path_text(raw)
    if text == "~" or text.startswith("~/"):
        text = os.path.expanduser(text)
    path = Path(text)
    if not path.is_absolute():
        path = cwd / path
    return Path(os.path.normpath(path))


def display_path(cwd: Path, path: Path) -> str:
    """``path`` relative to ``cwd`` when inside it, else absolute; for messages to the model."""
    try:
        rel = path.relative_to(cwd)
    except ValueError:
        return str(path)
    return str(rel) if str(rel) != "." else "."


def symlink_target(cwd: Path, path: Path) -> Path | None:
    """The real path behind ``path`` when a symlink in it leads elsewhere, else None.

    Symlinks above the working directory (``/tmp`` on macOS, a symlinked home) are not
    reported: only those the path itself walks through below ``cwd``, or anywhere for a path
    outside it.
    """
    try:
        real = Path(os.path.realpath(path))
        try:
            expected = Path(os.path.realpath(cwd)) / path.relative_to(cwd)
        except ValueError:
            expected = path
    except (OSError, ValueError):
        return None
    return real if real != expected else None


def symlink_note(cwd: Path, path: Path) -> str:
    """A suffix like `` (symlink to /real/file)`` when ``path`` goes through a symlink."""
    real = symlink_target(cwd, path)
    return "" if real is None else f" (via symlink to {display_path(cwd, real)})"
