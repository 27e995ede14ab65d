"""The ``grep`` tool: search file contents for a pattern, ripgrep-fast, with a Python fallback.

Both backends see the same files (hidden included, ``.git`` and ``.gitignore``d paths out),
print ``path:line: text`` for matches and ``path-line- text`` for context, with paths
relative to the working directory so they can be passed straight to read or edit.
"""

from __future__ import annotations

import asyncio
import base64
import json
from contextlib import aclosing
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.tools.argument_aliases import renaming
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.globs import compile_glob
from tau_coding.tools.grep_python import Hit, SearchRequest, search_python
from tau_coding.tools.paths import display_path, resolve_path
from tau_coding.tools.results import fail, guarded
from tau_coding.tools.ripgrep import COMMON_FLAGS, RgRun, find_rg, rg_lines
from tau_coding.tools.truncate import cut_line, format_size, truncate_head

DEFAULT_LIMIT = 100

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pattern": {
            "type": "string",
            "description": "Search pattern (regex, or literal text with literal=true)",
        },
        "path": {"type": "string", "description": "Directory or file to search (default: working directory)"},
        "glob": {
            "type": "string",
            "description": "Only search files matching this glob, e.g. '*.py' or 'src/**/*.ts'",
        },
        "ignoreCase": {"type": "boolean", "description": "Case-insensitive search (default: false)"},
        "literal": {
            "type": "boolean",
            "description": "Treat pattern as literal text, not a regex (default: false)",
        },
        "context": {
            "type": "integer",
            "minimum": 0,
            "description": "Lines of context around each match (default: 0)",
        },
        "limit": {
            "type": "integer",
            "minimum": 1,
            "description": f"Maximum number of matches (default: {DEFAULT_LIMIT})",
        },
    },
    "required": ["pattern"],
    "additionalProperties": False,
}


def _text(field: dict[str, Any]) -> str:
    if "text" in field:
        return str(field["text"])
    return base64.b64decode(field.get("bytes", "")).decode("utf-8", errors="replace")


async def search_rg(
    rg: str, request: SearchRequest, cwd: Path, signal: CancellationToken
) -> tuple[list[Hit], str | None]:
    """Hits from ripgrep, or an error message when rg failed without finding anything."""
    args = ["--json", *COMMON_FLAGS, "--max-columns", "0"]
    if request.ignore_case:
        args.append("--ignore-case")
    if request.literal:
        args.append("--fixed-strings")
    if request.context:
        args += ["--context", str(request.context)]
    if request.glob is not None and not request.glob.anchored:
        args += ["--type-add", f"tauglob:{request.glob.pattern}", "--type", "tauglob"]
    args += ["--regexp", request.pattern, "--", request.target]
    run = RgRun()
    hits: list[Hit] = []
    matches = 0
    prefix = request.root_prefix
    async with aclosing(rg_lines(rg, args, cwd, signal, run)) as lines:
        async for line in lines:
            event = json.loads(line)
            kind = event.get("type")
            if kind not in ("match", "context"):
                if matches >= request.limit:
                    break
                continue
            data = event["data"]
            path = _text(data["path"]).removeprefix("./")
            if matches >= request.limit:
                # Past the limit only the last match's after-context is still wanted.
                previous = hits[-1]
                if kind == "match" or path != previous.path or int(data["line_number"]) != previous.line + 1:
                    break
            if (
                request.glob is not None
                and request.glob.anchored
                and not request.glob.matches(path.removeprefix(prefix))
            ):
                continue
            text = _text(data["lines"]).rstrip("\n").removesuffix("\r")
            hits.append(Hit(path, int(data["line_number"]), kind == "match", text))
            matches += kind == "match"
    if run.returncode == 2 and not hits:
        return [], " ".join(
            part.strip() for part in run.stderr.splitlines() if part.strip()
        ) or "ripgrep failed"
    return hits, None


def format_hits(hits: list[Hit], request: SearchRequest, settings: ToolSettings) -> AgentToolResult:
    """Hits grouped by file (files in path order), within the line/byte budget, with notices."""
    by_file: dict[str, list[Hit]] = {}
    for hit in hits:
        by_file.setdefault(hit.path, []).append(hit)
    lines: list[str] = []
    cut_any = False
    match_count = 0
    for path in sorted(by_file):
        for hit in by_file[path]:
            text, cut = cut_line(hit.text, settings.grep_line_chars)
            cut_any |= cut
            match_count += hit.is_match
            lines.append(f"{path}:{hit.line}: {text}" if hit.is_match else f"{path}-{hit.line}- {text}")
    if not match_count:
        return AgentToolResult.text("No matches found", {"matches": 0})
    out = truncate_head("\n".join(lines), settings.max_lines, settings.max_bytes)
    notices: list[str] = []
    if match_count >= request.limit:
        notices.append(
            f"{request.limit} matches limit reached. Use limit={request.limit * 2} for more, or refine pattern"
        )
    if out.truncated:
        notices.append(
            f"Output cut at {out.output_lines} lines ({format_size(settings.max_bytes)} limit); narrow the search with path or glob"
        )
    if cut_any:
        notices.append(
            f"Some lines truncated to {settings.grep_line_chars} chars. Use read to see full lines"
        )
    details = {
        "matches": match_count,
        "limitReached": match_count >= request.limit,
        "truncated": out.truncated,
    }
    body = out.content + "".join(f"\n\n[{notice}]" for notice in notices)
    return AgentToolResult.text(body, details)


def create_grep_tool(cwd: Path, settings: ToolSettings) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        root = resolve_path(cwd, args.get("path") or ".")
        shown = display_path(cwd, root)
        if not root.exists():
            return fail(f"Path not found: {shown}")
        if not args["pattern"]:
            return fail("pattern must not be empty.")
        glob = args.get("glob")
        request = SearchRequest(
            pattern=args["pattern"],
            root=root,
            target=shown,
            root_prefix="" if shown == "." or not root.is_dir() else shown.rstrip("/") + "/",
            glob=compile_glob(glob) if glob else None,
            ignore_case=bool(args.get("ignoreCase")),
            literal=bool(args.get("literal")),
            context=int(args.get("context") or 0),
            limit=int(args.get("limit") or DEFAULT_LIMIT),
        )
        rg = find_rg(settings.rg_path) if settings.use_ripgrep else None
        if rg is not None:
            hits, error = await search_rg(rg, request, cwd, signal)
        else:
            found = await asyncio.to_thread(search_python, request, signal)
            hits, error = (found, None) if isinstance(found, list) else ([], found)
        if signal.cancelled:
            return fail("grep was cancelled.")
        if error is not None:
            return fail(f"grep failed: {error}")
        return format_hits(hits, request, settings)

    return AgentTool(
        name="grep",
        label="Grep",
        description=(
            "Search file contents for a regex (or literal text). Respects .gitignore, includes hidden files. "
            f"Returns matching lines as path:line: text, at most {DEFAULT_LIMIT} matches by default "
            f"and lines cut to {settings.grep_line_chars} characters."
        ),
        parameters=PARAMETERS,
        prepare_arguments=renaming(PARAMETERS),
        execute=guarded("grep", execute),
        prompt_snippet="Search file contents for patterns (respects .gitignore)",
    )
