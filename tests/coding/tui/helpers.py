"""Test helpers for the TUI: a provider that pauses mid-stream, tools over real processes and files."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.events import AgentEvent
from tau_agent.harness import AgentHarness
from tau_agent.messages import AgentMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent
from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import ReplyLike
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tests.coding.tui.harness_port import HarnessSessionAdapter

OBJECT = {"type": "object", "properties": {}}


class GatedProvider:
    """A FakeProvider that stops after ``pause_after`` text deltas of each reply until ``gate`` opens.

    Cancellation also releases it, so Esc tests see a real aborted stream.
    """

    def __init__(self, replies: Sequence[ReplyLike], pause_after: int) -> None:
        self.inner = FakeProvider(replies)
        self.pause_after = pause_after
        self.gate = asyncio.Event()
        self.paused = asyncio.Event()

    api = property(lambda self: self.inner.api)
    provider = property(lambda self: self.inner.provider)
    model = property(lambda self: self.inner.model)

    async def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        seen = 0
        async for event in self.inner.stream(context, options):
            yield event
            if event.type == "text_delta":
                seen += 1
                if seen == self.pause_after:
                    self.paused.set()
                    await _either(self.gate, options.signal)


async def _either(gate: asyncio.Event, signal: CancellationToken) -> None:
    waiters = [asyncio.ensure_future(gate.wait()), asyncio.ensure_future(signal.wait())]
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


def shell_tool() -> AgentTool:
    """``bash``: runs the command in a real shell, streaming each output line as a partial result."""

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        process = await asyncio.create_subprocess_shell(
            args["command"], stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        assert process.stdout is not None
        lines: list[str] = []
        async for raw in process.stdout:
            lines.append(raw.decode())
            on_update(AgentToolResult.text("".join(lines)))
        code = await process.wait()
        return AgentToolResult.text("".join(lines), {"exitCode": code}, is_error=code != 0)

    schema = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
    return AgentTool("bash", "Run a shell command.", schema, execute)


def edit_tool(root: Path) -> AgentTool:
    """``edit``: replaces text in a real file and reports a unified diff in its details."""

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        import difflib

        path = root / args["path"]
        before = path.read_text()
        if args["old"] not in before:
            return AgentToolResult.text(f"old text not found in {args['path']}", is_error=True)
        after = before.replace(args["old"], args["new"], 1)
        path.write_text(after)
        diff = "".join(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                f"a/{args['path']}",
                f"b/{args['path']}",
            )
        )
        return AgentToolResult.text(f"Edited {args['path']}", {"diff": diff})

    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "old": {"type": "string"}, "new": {"type": "string"}},
        "required": ["path", "old", "new"],
    }
    return AgentTool("edit", "Replace text in a file.", schema, execute)


def gated_tool(gate: asyncio.Event, started: asyncio.Event) -> AgentTool:
    """``wait``: reports progress, then blocks until ``gate`` opens or the run is cancelled."""

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        on_update(AgentToolResult.text("waiting…"))
        started.set()
        await _either(gate, signal)
        if signal.cancelled:
            return AgentToolResult.text("cancelled", is_error=True)
        return AgentToolResult.text("released")

    return AgentTool("wait", "Wait for the gate.", OBJECT, execute)


def adapter(
    provider: Any,
    tools: Sequence[AgentTool] = (),
    cwd: Path | str = "/work/project",
    messages: Sequence[AgentMessage] = (),
    **kwargs: Any,
) -> HarnessSessionAdapter:
    harness = AgentHarness(provider, tools=tools, messages=messages)
    return HarnessSessionAdapter(harness, cwd=cwd, **kwargs)


async def run_events(harness: AgentHarness, prompt: str) -> list[AgentEvent]:
    return [event async for event in harness.prompt(prompt)]
