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
    """A tool's result in the shape hook scripts read (Bash: stdout; file tools: filePath)."""
    text = text_of(content)
    response: dict[str, Any] = {"output": text, "success": True}
    if tool == "bash":
        response.update(
            stdout=text, stderr="", interrupted=bool(isinstance(details, dict) and details.get("cancelled"))
        )
    if isinstance(args.get("path"), str):
        response["filePath"] = str((cwd / args["path"]).resolve())
    return response
