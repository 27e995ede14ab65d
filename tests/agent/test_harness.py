"""AgentHarness: the record across runs, one run at a time, queues, cancel, repair."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.events import AgentEvent, MessageUpdateEvent, ToolExecutionStartEvent
from tau_agent.harness import AgentBusyError, AgentHarness, repair_dangling_tool_calls
from tau_agent.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from tau_agent.testing import FakeProvider, call, reply, text
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tests.agent.helpers import collect, shape


def _waiting_tool(started: asyncio.Event, release: asyncio.Event) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        started.set()
        waiter = asyncio.ensure_future(signal.wait())
        await asyncio.wait(
            [waiter, asyncio.ensure_future(release.wait())], return_when=asyncio.FIRST_COMPLETED
        )
        waiter.cancel()
        if signal.cancelled:
            return AgentToolResult.text("cancelled", is_error=True)
        return AgentToolResult.text("ok")

    return AgentTool("wait", "Waits.", {"type": "object"}, execute)


async def test_prompt_runs_and_keeps_the_record_across_runs() -> None:
    harness = AgentHarness(FakeProvider(["One.", "Two."]))
    await collect(harness.prompt("first"))
    await collect(harness.prompt("second"))
    assert shape(harness.messages) == "U A U A"
    assert not harness.is_running


async def test_second_prompt_while_running_is_a_clear_error() -> None:
    harness = AgentHarness(FakeProvider([reply(text("slow", chunk_size=1), delay=0.01)]))
    run = harness.prompt("first")
    await run.__anext__()
    assert harness.is_running
    with pytest.raises(AgentBusyError, match="steer or queue a follow-up"):
        harness.prompt("second")
    await collect(run)
    assert not harness.is_running


async def test_subscribers_see_every_event_and_can_unsubscribe() -> None:
    harness = AgentHarness(FakeProvider(["One.", "Two."]))
    seen: list[AgentEvent] = []
    unsubscribe = harness.subscribe(seen.append)
    events = await collect(harness.prompt("first"))
    assert seen == events
    unsubscribe()
    await collect(harness.prompt("second"))
    assert len(seen) == len(events)


async def test_steer_during_a_tool_is_taken_after_it() -> None:
    started, release = asyncio.Event(), asyncio.Event()
    provider = FakeProvider([reply(call("wait", id="c1")), "Changed course."])
    harness = AgentHarness(provider, tools=[_waiting_tool(started, release)])
    async for event in harness.prompt("go"):
        if isinstance(event, ToolExecutionStartEvent):
            harness.steer("Use the staging database instead.")
            release.set()
    assert shape(harness.messages) == "U A[c1] R(c1) U A"
    assert harness.pending_count == 0


async def test_follow_up_modes_one_at_a_time_and_all() -> None:
    for mode, expected in (("one-at-a-time", "U A U A U A"), ("all", "U A U U A")):
        harness = AgentHarness(FakeProvider(["a", "b", "c"]), follow_up_mode=mode)  # type: ignore[arg-type]
        harness.follow_up("more 1")
        harness.follow_up("more 2")
        await collect(harness.prompt("go"))
        assert shape(harness.messages) == expected, mode


async def test_cancel_aborts_the_reply_and_the_next_prompt_works() -> None:
    provider = FakeProvider([reply(text("a very long answer", chunk_size=1), delay=0.01), "Fresh."])
    harness = AgentHarness(provider)
    async for event in harness.prompt("go"):
        if isinstance(event, MessageUpdateEvent):
            harness.cancel()
    aborted = harness.messages[-1]
    assert isinstance(aborted, AssistantMessage) and aborted.stop_reason == "aborted"
    await collect(harness.prompt("again"))
    assert isinstance(harness.messages[-1], AssistantMessage) and harness.messages[-1].text == "Fresh."


async def test_cancel_reaches_a_running_tool_and_the_run_closes() -> None:
    started, release = asyncio.Event(), asyncio.Event()
    provider = FakeProvider([reply(call("wait", id="c1")), "never sent"])
    harness = AgentHarness(provider, tools=[_waiting_tool(started, release)])
    types = []
    async for event in harness.prompt("go"):
        types.append(event.type)
        if isinstance(event, ToolExecutionStartEvent):
            harness.cancel()
    result = harness.messages[2]
    assert isinstance(result, ToolResultMessage) and result.is_error
    assert types[-1] == "agent_end"
    final = harness.messages[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "aborted"


async def test_next_run_repairs_a_tool_call_left_without_result() -> None:
    dangling = AssistantMessage(content=[ToolCall("c9", "bash", {"command": "ls"})], stop_reason="toolUse")
    provider = FakeProvider(["Recovered."])
    harness = AgentHarness(provider, messages=[UserMessage("list"), dangling])
    await collect(harness.prompt("well?"))
    assert shape(harness.messages) == "U A[c9] R(c9) U A"
    repaired = harness.messages[2]
    assert isinstance(repaired, ToolResultMessage) and repaired.is_error
    assert repaired.content[0].text == "Tool call interrupted by user"  # type: ignore[union-attr]
    assert [m.role for m in provider.contexts[0].messages] == ["user", "assistant", "toolResult", "user"]


def test_repair_inserts_missing_results_after_the_existing_ones() -> None:
    reply_ = AssistantMessage(content=[ToolCall("a", "t"), ToolCall("b", "t")], stop_reason="toolUse")
    done = ToolResultMessage("a", "t", [])
    messages: list[Any] = [UserMessage("x"), reply_, done, UserMessage("y")]
    assert repair_dangling_tool_calls(messages) == 1
    assert shape(messages) == "U A[a,b] R(a) R(b) U"
    assert repair_dangling_tool_calls(messages) == 0


async def test_continue_runs_from_the_record_without_a_new_user_message() -> None:
    provider = FakeProvider(["Answer."])
    harness = AgentHarness(provider, messages=[UserMessage("question")])
    await collect(harness.continue_())
    assert shape(harness.messages) == "U A"


def test_continue_refuses_when_the_record_ends_with_a_reply() -> None:
    harness = AgentHarness(FakeProvider([]), messages=[UserMessage("q"), AssistantMessage()])
    with pytest.raises(ValueError, match="Nothing to continue from"):
        harness.continue_()


async def test_replace_messages_is_refused_while_running() -> None:
    harness = AgentHarness(FakeProvider([reply(text("slow", chunk_size=1), delay=0.01)]))
    run = harness.prompt("go")
    await run.__anext__()
    with pytest.raises(AgentBusyError):
        harness.replace_messages([])
    await collect(run)
    harness.replace_messages([])
    assert harness.messages == []


async def test_closing_a_run_early_releases_the_harness() -> None:
    harness = AgentHarness(FakeProvider(["One.", "Two."]))
    run = harness.prompt("first")
    await run.__anext__()
    await run.aclose()
    assert not harness.is_running
    await collect(harness.prompt("second"))
