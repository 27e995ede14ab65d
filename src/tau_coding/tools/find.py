"""The ``find`` tool: list files whose path matches a glob, respecting .gitignore.

Patterns without a slash match file names at any depth (``*.py``); with one they match the
path below the search directory (``src/**/*.ts``). Results are sorted and shown relative to
the working directory, ready to pass to read.
"""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.tools.argument_aliases import renaming
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.globs import Glob, compile_glob
from tau_coding.tools.paths import display_path, resolve_path
from tau_coding.tools.results import fail, guarded
from tau_coding.tools.ripgrep import COMMON_FLAGS, RgRun, find_rg, rg_lines
from tau_coding.tools.truncate import format_size, truncate_head
from tau_coding.tools.walk import walk_files

DEFAULT_LIMIT = 1000

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pattern": {
            "type": "string",
            "description": "Glob to match, e.g. '*.py', '**/*.json' or 'src/**/*.spec.ts'",
        },
        "path": {"type": "string", "description": "Directory to search in (default: working directory)"},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "description": f"Maximum number of results (default: {DEFAULT_LIMIT})",
        },
    },
    "required": ["pattern"],
    "additionalProperties": False,
}


async def _files_rg(rg: str, root: Path, glob: Glob, signal: CancellationToken) -> list[str] | str:
    args = ["--files", *COMMON_FLAGS]
    if not glob.anchored:
        # The name filter runs inside rg; a type (unlike --glob) never re-includes ignored files.
        args += ["--type-add", f"taufind:{glob.pattern}", "--type", "taufind"]
    run = RgRun()
    found: list[str] = []
    async with aclosing(rg_lines(rg, [*args, "."], root, signal, run)) as lines:
        async for line in lines:
            rel = line.decode("utf-8", errors="surrogateescape").removeprefix("./")
            if glob.matches(rel):
                found.append(rel)
    if run.returncode == 2 and not found:
        return run.stderr.splitlines()[0] if run.stderr else "ripgrep failed"
    return found


def _files_python(root: Path, glob: Glob, signal: CancellationToken) -> list[str]:
    found: list[str] = []
    for rel in walk_files(root):
        if signal.cancelled:
            break
        if glob.matches(rel):
            found.append(rel)
    return found


def create_find_tool(cwd: Path, settings: ToolSettings) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        root = resolve_path(cwd, args.get("path") or ".")
        shown = display_path(cwd, root)
        if not root.exists():
            return fail(f"Path not found: {shown}")
        if not root.is_dir():
            return fail(f"{shown} is a file, not a directory; give a directory to search in.")
        if not args["pattern"].strip():
            return fail("pattern must not be empty; use '*' to list every file.")
        glob = compile_glob(args["pattern"])
        limit = int(args.get("limit") or DEFAULT_LIMIT)
        rg = find_rg(settings.rg_path) if settings.use_ripgrep else None
        if rg is not None:
            found = await _files_rg(rg, root, glob, signal)
        else:
            found = await asyncio.to_thread(_files_python, root, glob, signal)
        if signal.cancelled:
            return fail("find was cancelled.")
        if isinstance(found, str):
            return fail(f"find failed: {found}")
        if not found:
            return AgentToolResult.text(f"No files found matching pattern {args['pattern']!r}", {"count": 0})
        found.sort()
        prefix = "" if shown == "." else shown.rstrip("/") + "/"
        shown_paths = [prefix + rel for rel in found[:limit]]
        out = truncate_head("\n".join(shown_paths), settings.max_lines, settings.max_bytes)
        notices: list[str] = []
        if len(found) > limit:
            notices.append(
                f"{limit} results limit reached ({len(found)} found). Use limit={limit * 2} for more, or refine pattern"
            )
        if out.truncated:
            notices.append(
                f"Output cut at {out.output_lines} results ({format_size(settings.max_bytes)} limit); refine pattern or path"
            )
        details = {"count": len(found), "limitReached": len(found) > limit, "truncated": out.truncated}
        return AgentToolResult.text(out.content + "".join(f"\n\n[{n}]" for n in notices), details)

    return AgentTool(
        name="find",
        label="Find",
        description=(
            "Find files by glob pattern ('*.py', '**/*.json', 'src/**/*.spec.ts'). Respects .gitignore and "
            f"includes hidden files. Returns sorted paths, at most {DEFAULT_LIMIT} by default."
        ),
        parameters=PARAMETERS,
        prepare_arguments=renaming(PARAMETERS),
        execute=guarded("find", execute),
        prompt_snippet="Find files by glob pattern (respects .gitignore)",
    )
