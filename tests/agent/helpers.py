"""Small tools for agent tests: tools backed by real files, run helpers, transcript shapes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.events import AgentEvent
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate


def read_tool(root: Path, ran: list[str] | None = None) -> AgentTool:
    """A minimal read tool over real files; appends each path it reads to ``ran``."""

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        if ran is not None:
            ran.append(args["path"])
        return AgentToolResult.text((root / args["path"]).read_text())

    return AgentTool(
        name="read",
        description="Read a file.",
        parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        execute=execute,
    )


def shape(messages: Sequence[AgentMessage]) -> str:
    """The lesson's notation: U, A[c1,c2], R(c1)."""
    parts = []
    for m in messages:
        if isinstance(m, UserMessage):
            parts.append("U")
        elif isinstance(m, AssistantMessage):
            calls = ",".join(c.id for c in m.tool_calls)
            parts.append(f"A[{calls}]" if calls else "A")
        elif isinstance(m, ToolResultMessage):
            parts.append(f"R({m.tool_call_id})")
        else:
            parts.append(m.role)
    return " ".join(parts)


async def collect(events: AsyncIterator[AgentEvent]) -> list[AgentEvent]:
    return [event async for event in events]


async def run(
    config: LoopConfig, prompt: str = "go", messages: list[AgentMessage] | None = None
) -> tuple[list[AgentEvent], list[AgentMessage]]:
    record: list[AgentMessage] = [] if messages is None else messages
    events = await collect(run_agent_loop([UserMessage(prompt)], record, config))
    return events, record


def types(events: Sequence[AgentEvent], *, updates: bool = False) -> list[str]:
    return [e.type for e in events if updates or e.type != "message_update"]


def run_sync(coro: Any) -> Any:
    return asyncio.run(coro)
