"""A tool of our own: count the lines of a file (relative paths start in the project)."""

from __future__ import annotations

from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.extensions import ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    async def count_lines(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        path = tau.cwd / args["path"]
        with path.open("rb") as handle:
            lines = sum(1 for _ in handle)
        return AgentToolResult.text(f"{args['path']}: {lines} lines", details={"lines": lines})

    tau.register_tool(
        AgentTool(
            name="count_lines",
            description="Count the lines of a text file.",
            parameters={
                "type": "object",
                "properties": {"path": {"type": "string", "description": "the file"}},
                "required": ["path"],
            },
            execute=count_lines,
            prompt_snippet="Count the lines of a file",
        )
    )
