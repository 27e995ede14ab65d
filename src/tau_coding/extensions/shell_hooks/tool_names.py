"""Tau's tools as hook scripts written for Claude Code know them, and back.

Claude Code names its tools ``Bash``, ``Read``, ``Write``, ``Edit``, ``Grep``, ``Glob``,
``LS`` and gives absolute ``file_path`` inputs; a script that reads
``.tool_input.file_path`` or ``.tool_input.command`` must work unchanged, so payloads carry
those names and shapes, and an ``updatedInput`` in that shape is turned back into Tau's.
Tools Tau does not map (an extension's) keep their own name and input.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

CLAUDE_NAMES = {
    "bash": "Bash",
    "read": "Read",
    "write": "Write",
    "edit": "Edit",
    "grep": "Grep",
    "find": "Glob",
    "ls": "LS",
}


def claude_name(tool: str) -> str:
    return CLAUDE_NAMES.get(tool, tool)


def _absolute(path: Any, cwd: Path) -> Any:
    return str((cwd / path).resolve()) if isinstance(path, str) else path


def to_claude_input(tool: str, args: Mapping[str, Any], cwd: Path) -> dict[str, Any]:
    """Tau's arguments as Claude Code's ``tool_input`` for that tool."""
    out = dict(args)
    if tool in ("read", "write", "edit") and "path" in out:
        out["file_path"] = _absolute(out.pop("path"), cwd)
    elif tool in ("grep", "find", "ls") and "path" in out:
        out["path"] = _absolute(out["path"], cwd)
    if tool == "edit" and isinstance(out.get("edits"), list):
        edits = [
            {"old_string": e.get("oldText"), "new_string": e.get("newText")}
            for e in out.pop("edits")
            if isinstance(e, dict)
        ]
        if len(edits) == 1:
            out.update(edits[0])
        else:
            out["edits"] = edits
    if tool == "bash" and isinstance(out.get("timeout"), int | float):
        out["timeout"] = int(out["timeout"] * 1000)  # Claude Code's Bash timeout is in milliseconds
    if tool == "grep" and "ignoreCase" in out:
        out["-i"] = out.pop("ignoreCase")
    return out


def from_claude_input(tool: str, claude: Mapping[str, Any]) -> dict[str, Any]:
    """A hook's ``updatedInput`` (Claude Code's shape) as Tau's arguments for ``tool``."""
    out = dict(claude)
    if "file_path" in out:
        out["path"] = out.pop("file_path")
    if tool == "edit":
        if "old_string" in out or "new_string" in out:
            out["edits"] = [{"oldText": out.pop("old_string", ""), "newText": out.pop("new_string", "")}]
            out.pop("replace_all", None)
        elif isinstance(out.get("edits"), list):
            out["edits"] = [
                {"oldText": e.get("old_string", ""), "newText": e.get("new_string", "")}
                for e in out["edits"]
                if isinstance(e, dict)
            ]
    if tool == "bash":
        out.pop("description", None)
        if isinstance(out.get("timeout"), int | float):
            out["timeout"] = max(1, round(out["timeout"] / 1000))
    if tool == "grep" and "-i" in out:
        out["ignoreCase"] = out.pop("-i")
    return out
