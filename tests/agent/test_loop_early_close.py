"""A consumer may stop listening after any event; the record it leaves must be true."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.events import AgentEvent, MessageEndEvent, ToolExecutionUpdateEvent
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, ToolResultMessage, UserMessage
from tau_agent.testing import FakeProvider, call, reply
from tau_agent.tools import AgentTool, AgentToolResult, ExecutionMode, ToolUpdate
from tests.agent.helpers import read_tool, shape

LESSON_SEVEN = {
    "agent_start",
    "turn_start",
    "message_end",
    "tool_execution_start",
    "tool_execution_end",
    "turn_end",
    "agent_end",
}

# The seed lesson's table: stop after k of its seven event kinds, and what the record holds.
LESSON_TABLE = [
    ("agent_start", "", 0),
    ("turn_start", "", 0),
    ("message_end", "U", 0),
    ("message_end", "U A[c1,c2]", 0),
    ("tool_execution_start", "U A[c1,c2]", 0),
    ("message_end", "U A[c1,c2] R(c1)", 1),
    ("tool_execution_end", "U A[c1,c2] R(c1)", 1),
    ("tool_execution_start", "U A[c1,c2] R(c1)", 1),
    ("message_end", "U A[c1,c2] R(c1) R(c2)", 2),
    ("tool_execution_end", "U A[c1,c2] R(c1) R(c2)", 2),
    ("turn_end", "U A[c1,c2] R(c1) R(c2)", 2),
    ("turn_start", "U A[c1,c2] R(c1) R(c2)", 2),
    ("message_end", "U A[c1,c2] R(c1) R(c2) A", 2),
    ("turn_end", "U A[c1,c2] R(c1) R(c2) A", 2),
    ("agent_end", "U A[c1,c2] R(c1) R(c2) A", 2),
]


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "config.py").write_text("PORT = 9090\n")
    (tmp_path / "backup.py").write_text("PORT = 8080\n")
    return tmp_path


async def _stop_after(
    k: int, root: Path, mode: ExecutionMode
) -> tuple[AgentEvent, list[AgentMessage], list[str]]:
    ran: list[str] = []
    provider = FakeProvider(
        [
            reply(call("read", {"path": "config.py"}, id="c1"), call("read", {"path": "backup.py"}, id="c2")),
            "They differ.",
        ]
    )
    config = LoopConfig(provider=provider, tools=[read_tool(root, ran)], tool_execution=mode)
    record: list[AgentMessage] = []
    heard: list[AgentEvent] = []
    run = run_agent_loop([UserMessage("Compare the two ports.")], record, config)
    async for event in run:
        heard.append(event)
        if len(heard) == k:
            break
    await run.aclose()
    return heard[-1], record, ran


async def _total_events(root: Path, mode: ExecutionMode) -> int:
    provider = FakeProvider(
        [
            reply(call("read", {"path": "config.py"}, id="c1"), call("read", {"path": "backup.py"}, id="c2")),
            "They differ.",
        ]
    )
    config = LoopConfig(provider=provider, tools=[read_tool(root)], tool_execution=mode)
    return len([e async for e in run_agent_loop([UserMessage("x")], [], config)])


async def test_sequential_run_stopped_at_each_event_matches_the_lesson_table(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    rows = []
    for k in range(1, await _total_events(root, "sequential") + 1):
        last, record, ran = await _stop_after(k, root, "sequential")
        results = [m for m in record if isinstance(m, ToolResultMessage)]
        assert len(ran) == len(results), f"k={k}: a tool ran without a recorded result"
        if last.type in LESSON_SEVEN:
            rows.append((last.type, shape(record), len(ran)))
    assert rows == LESSON_TABLE


@pytest.mark.parametrize("mode", ["sequential", "parallel"])
async def test_announced_message_is_already_last_on_the_record_at_every_stop(
    tmp_path: Path, mode: ExecutionMode
) -> None:
    root = _workspace(tmp_path)
    for k in range(1, await _total_events(root, mode) + 1):
        last, record, ran = await _stop_after(k, root, mode)
        if isinstance(last, MessageEndEvent):
            assert last.message in record
        assert len(ran) == len([m for m in record if isinstance(m, ToolResultMessage)])


def _slow_tool(started: asyncio.Event, finished: list[str]) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        started.set()
        on_update(AgentToolResult.text("working"))
        await asyncio.sleep(30)
        finished.append(tool_call_id)
        return AgentToolResult.text("done")

    return AgentTool("slow", "Takes a while.", {"type": "object"}, execute)


@pytest.mark.parametrize("mode", ["sequential", "parallel"])
async def test_consumer_leaving_during_a_running_tool_records_it_as_interrupted(mode: ExecutionMode) -> None:
    started, finished = asyncio.Event(), []
    provider = FakeProvider([reply(call("slow", id="c1"))])
    config = LoopConfig(provider=provider, tools=[_slow_tool(started, finished)], tool_execution=mode)
    record: list[AgentMessage] = []
    run = run_agent_loop([UserMessage("go")], record, config)
    async for event in run:
        if isinstance(event, ToolExecutionUpdateEvent):
            break
    await run.aclose()
    assert shape(record) == "U A[c1] R(c1)"
    result = record[-1]
    assert isinstance(result, ToolResultMessage) and result.is_error
    assert result.content[0].text == "Tool call interrupted by user"  # type: ignore[union-attr]
    assert finished == []


async def test_task_cancelled_while_tool_runs_still_leaves_a_result() -> None:
    started, finished = asyncio.Event(), []
    provider = FakeProvider([reply(call("slow", id="c1"))])
    config = LoopConfig(provider=provider, tools=[_slow_tool(started, finished)])
    record: list[AgentMessage] = []

    async def consume() -> None:
        async for _ in run_agent_loop([UserMessage("go")], record, config):
            pass

    task = asyncio.ensure_future(consume())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert shape(record) == "U A[c1] R(c1)"
