"""The ``ls`` tool: one directory's entries, sorted, dotfiles included, ``/`` after directories.

Symlinks are shown with their target (``name -> target``), so the model sees where a path
really leads before it reads or writes through it.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.tools.argument_aliases import renaming
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.paths import display_path, resolve_path
from tau_coding.tools.results import describe_os_error, fail, guarded
from tau_coding.tools.truncate import format_size, truncate_head

DEFAULT_LIMIT = 500

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Directory to list (default: working directory)"},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "description": f"Maximum number of entries (default: {DEFAULT_LIMIT})",
        },
    },
    "additionalProperties": False,
}


def _entry(entry: os.DirEntry[str]) -> str:
    name = entry.name
    try:
        if entry.is_symlink():
            target = os.readlink(entry.path)
            suffix = "/" if entry.is_dir() else ""
            return f"{name}{suffix} -> {target}"
        return name + "/" if entry.is_dir() else name
    except OSError:
        return name


def list_directory(path: Path, shown: str) -> list[str] | str:
    """Sorted entry lines, or a message saying why there are none."""
    try:
        with os.scandir(path) as entries:
            named = sorted(entries, key=lambda entry: (entry.name.lower(), entry.name))
            return [_entry(entry) for entry in named]
    except FileNotFoundError:
        return f"Path not found: {shown}"
    except NotADirectoryError:
        return f"{shown} is a file, not a directory; use read to see its contents."
    except OSError as exc:
        return describe_os_error(exc, shown)


def create_ls_tool(cwd: Path, settings: ToolSettings) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        path = resolve_path(cwd, args.get("path") or ".")
        shown = display_path(cwd, path)
        listing = await asyncio.to_thread(list_directory, path, shown)
        if isinstance(listing, str):
            return fail(listing)
        if not listing:
            return AgentToolResult.text("(empty directory)", {"count": 0})
        limit = int(args.get("limit") or DEFAULT_LIMIT)
        out = truncate_head("\n".join(listing[:limit]), settings.max_lines, settings.max_bytes)
        notices: list[str] = []
        if len(listing) > limit:
            notices.append(
                f"{limit} entries limit reached ({len(listing)} entries). Use limit={limit * 2} for more"
            )
        if out.truncated:
            notices.append(
                f"Output cut at {out.output_lines} entries ({format_size(settings.max_bytes)} limit)"
            )
        details = {"count": len(listing), "limitReached": len(listing) > limit}
        return AgentToolResult.text(out.content + "".join(f"\n\n[{n}]" for n in notices), details)

    return AgentTool(
        name="ls",
        label="List",
        description=(
            "List a directory's entries, sorted alphabetically, dotfiles included, '/' after directories "
            f"and '-> target' after symlinks. At most {DEFAULT_LIMIT} entries by default."
        ),
        parameters=PARAMETERS,
        prepare_arguments=renaming(PARAMETERS),
        execute=guarded("ls", execute),
        prompt_snippet="List directory contents",
    )
