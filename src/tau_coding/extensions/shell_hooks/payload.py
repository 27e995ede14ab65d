"""What a hook reads on stdin: Claude Code's documented fields for each event.

Every payload has ``session_id``, ``transcript_path`` (the session file, "" when none),
``cwd``, ``hook_event_name`` and ``permission_mode`` (always "default": Tau has no modes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tau_agent.content import ToolResultContent, text_of
from tau_coding.extensions.shell_hooks.tool_names import claude_name, to_claude_input


def common(event: str, session_id: str, transcript: Path | None, cwd: Path) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "transcript_path": str(transcript) if transcript is not None else "",
        "cwd": str(cwd),
        "hook_event_name": event,
        "permission_mode": "default",
    }


def tool_fields(tool: str, call_id: str, args: Mapping[str, Any], cwd: Path) -> dict[str, Any]:
    return {
        "tool_name": claude_name(tool),
        "tool_input": to_claude_input(tool, args, cwd),
        "tool_use_id": call_id,
    }


def tool_response(
    tool: str, args: Mapping[str, Any], content: Sequence[ToolResultContent], details: Any, cwd: Path
) -> dict[str, Any]:
    """A tool's result in the shape Claude Code gives PostToolUse hooks: Bash ``stdout``/
    ``stderr``/``interrupted``; Read ``{"type": "text", "file": {...}}``; Write ``type``
    (create/update), ``filePath``, ``content``; Edit ``filePath``, ``oldString``, ``newString``.
    ``output`` (the text the model read) and ``success`` are there for every tool."""
    text = text_of(content)
    facts = details if isinstance(details, Mapping) else {}
    response: dict[str, Any] = {"output": text, "success": True}
    path = args.get("path")
    file_path = str((cwd / path).resolve()) if isinstance(path, str) else None
    if file_path is not None:
        response["filePath"] = file_path
    if tool == "bash":
        response.update(stdout=text, stderr="", interrupted=bool(facts.get("cancelled")), isImage=False)
    elif tool == "read" and file_path is not None:
        start, end = facts.get("startLine"), facts.get("endLine")
        lines = end - start + 1 if isinstance(start, int) and isinstance(end, int) else text.count("\n") + 1
        response.update(
            type="text",
            file={
                "filePath": file_path,
                "content": text,
                "numLines": lines,
                "startLine": start if isinstance(start, int) else 1,
                "totalLines": facts.get("totalLines", lines),
            },
        )
    elif tool == "write" and file_path is not None:
        response.update(type="create" if facts.get("created") else "update", content=args.get("content", ""))
    elif tool == "edit" and file_path is not None:
        edits = args.get("edits")
        first = edits[0] if isinstance(edits, list) and edits and isinstance(edits[0], Mapping) else args
        response.update(
            oldString=first.get("oldText", ""),
            newString=first.get("newText", ""),
            replaceAll=False,
            userModified=False,
        )
    return response
