"""The ``write`` tool: create or overwrite a file with the given text, atomically.

Parent directories are created. The reply counts real UTF-8 bytes, and names the real file
when the path was a symlink, so nothing is written somewhere the model did not see.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from tau_agent.atomic_write import atomic_write_bytes
from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.tools.argument_aliases import renaming
from tau_coding.tools.file_locks import FileLocks
from tau_coding.tools.paths import display_path, resolve_path, symlink_note
from tau_coding.tools.results import describe_os_error, fail, guarded

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "Path to the file (relative to the working directory or absolute)",
        },
        "content": {"type": "string", "description": "The complete new content of the file"},
    },
    "required": ["path", "content"],
    "additionalProperties": False,
}


def create_write_tool(cwd: Path, locks: FileLocks) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        path = resolve_path(cwd, args["path"])
        shown = display_path(cwd, path)
        if signal.cancelled:
            return fail(f"Write to {shown} cancelled before it started; the file is unchanged.")
        if os.path.isdir(path):
            return fail(f"{shown} is a directory; give the path of a file to write.")
        data = args["content"].encode("utf-8")
        async with locks.hold(path):
            try:
                existed = os.path.exists(path)
                await asyncio.to_thread(atomic_write_bytes, path, data)
            except OSError as exc:
                return fail(f"Could not write {shown}: {describe_os_error(exc, shown)}")
        note = symlink_note(cwd, path)
        details = {"path": str(os.path.realpath(path)), "bytes": len(data), "created": not existed}
        return AgentToolResult.text(f"Successfully wrote {len(data)} bytes to {shown}{note}", details)

    return AgentTool(
        name="write",
        label="Write",
        description=(
            "Write content to a file. Creates the file if it does not exist, overwrites it if it does, "
            "and creates parent directories. The write is atomic."
        ),
        parameters=PARAMETERS,
        prepare_arguments=renaming(PARAMETERS),
        execute=guarded("write", execute),
        prompt_snippet="Create or overwrite files",
        prompt_guidelines=("Use write only for new files or complete rewrites; use edit for changes.",),
    )
