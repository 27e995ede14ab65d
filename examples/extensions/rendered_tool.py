"""A tool with its own look in the TUI: ``file_stats`` counts a file's lines, words and bytes.

``register_tool(..., render_call=, render_result=)``: the row reads ``file_stats 📄 notes.md``
while it runs and ``12 lines · 80 words · 512 bytes`` with a bar once it finished, instead of
the raw text the model gets. Print and RPC modes show the plain result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.extensions import ExtensionAPI


def render_call(args: Mapping[str, Any]) -> str:
    return f"📄 {args.get('path', '?')}"


def render_result(output: str, details: Any, is_error: bool, expanded: bool) -> str:
    if is_error or not isinstance(details, dict):
        return f"✗ {output}"
    bar = "█" * min(40, max(1, details["lines"] // 5))
    text = f"{details['lines']} lines · {details['words']} words · {details['bytes']} bytes\n{bar}"
    return text + (f"\n{output}" if expanded else "")


def activate(tau: ExtensionAPI) -> None:
    async def file_stats(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        try:
            data = (tau.cwd / str(args["path"])).read_bytes()
        except OSError as exc:
            return AgentToolResult.text(f"{args['path']}: {exc.strerror}", is_error=True)
        stats = {"lines": data.count(b"\n"), "words": len(data.split()), "bytes": len(data)}
        return AgentToolResult.text(f"{args['path']}: {stats}", details=stats)

    tool = AgentTool(
        "file_stats",
        "Count the lines, words and bytes of a file.",
        {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        file_stats,
    )
    tau.register_tool(tool, render_call=render_call, render_result=render_result)
