"""What an ``edit`` or ``write`` call would change, as a unified diff, before it runs.

The permission dialog shows it, so "allow this edit?" is asked about the change itself and
not only the file's name (Claude Code shows the same). The edit is planned exactly as the
tool plans it (``edit_match``), without writing anything. Any reason the call would fail
(a missing file, an oldText that matches nowhere, a binary or oversized file, bad arguments)
gives no preview: the tool reports it when it runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tau_coding.tools.diff import unified_diff
from tau_coding.tools.edit_match import EditError, apply_replacements, normalize_breaks, plan_edits
from tau_coding.tools.paths import display_path, resolve_path

MAX_PREVIEWED = 1024 * 1024  # bytes: a larger file is not read just to ask a question


def change_preview(cwd: Path, tool: str, args: Mapping[str, Any]) -> str | None:
    """The diff ``tool`` (``edit`` or ``write``) would make with ``args``; None when there is
    none to show (another tool, arguments the call would refuse, no change)."""
    raw = args.get("path")
    if tool not in ("edit", "write") or not isinstance(raw, str) or not raw:
        return None
    path = resolve_path(cwd, raw)
    shown = display_path(cwd, path)
    old = _text_of(path)
    if tool == "write":
        content = args.get("content")
        if not isinstance(content, str):
            return None
        new = normalize_breaks(content)
        old = "" if old is None else normalize_breaks(old)
    else:
        edits = _edits(args)
        if old is None or edits is None:
            return None
        old = normalize_breaks(old.removeprefix("\ufeff"))
        try:
            new = apply_replacements(old, plan_edits(old, edits, shown))
        except EditError:
            return None
    return unified_diff(old, new, shown) if new != old else None


def _text_of(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_PREVIEWED + 1)
    except OSError:
        return None
    if len(data) > MAX_PREVIEWED or b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


def _edits(args: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    edits = args.get("edits")
    if edits is None:
        old, new = args.get("oldText"), args.get("newText")
        return [(old, new)] if isinstance(old, str) and isinstance(new, str) else None
    if not isinstance(edits, list):
        return None
    pairs = [(e.get("oldText"), e.get("newText")) for e in edits if isinstance(e, dict)]
    if len(pairs) != len(edits) or not all(isinstance(o, str) and isinstance(n, str) for o, n in pairs):
        return None
    return [(str(o), str(n)) for o, n in pairs]
