"""The event discipline of run_agent_loop, checked the way the seed lesson checks it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_agent.events import AgentEndEvent, MessageEndEvent, MessageUpdateEvent
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.testing import FakeProvider, call, fail, reply
from tests.agent.helpers import read_tool, run, shape, types

FILES = {"config.py": "PORT = 9090\n", "backup.py": "PORT = 8080\n"}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


async def test_model_that_answers_at_once_gives_the_exact_event_list() -> None:
    events, messages = await run(LoopConfig(provider=FakeProvider(["Hello."])), "Hi.")
    assert types(events, updates=True) == [
        "agent_start",
        "turn_start",
        "message_start",
        "message_end",
        "message_start",
        "message_update",
        "message_update",
        "message_update",
        "message_end",
        "turn_end",
        "agent_end",
    ]
    assert [e.assistant_message_event.type for e in events if isinstance(e, MessageUpdateEvent)] == [
        "text_start",
        "text_delta",
        "text_end",
    ]
    last = events[-1]
    assert isinstance(last, AgentEndEvent) and last.messages == messages
    assert isinstance(messages[-1], AssistantMessage) and messages[-1].text == "Hello."


async def test_one_tool_call_result_is_announced_inside_its_execution(workspace: Path) -> None:
    provider = FakeProvider(
        [reply("Let me look.", call("read", {"path": "config.py"}, id="c1")), "Port 9090."]
    )
    events, messages = await run(LoopConfig(provider=provider, tools=[read_tool(workspace)]))
    assert types(events) == [
        "agent_start",
        "turn_start",
        "message_start",
        "message_end",
        "message_start",
        "message_end",
        "tool_execution_start",
        "message_start",
        "message_end",
        "tool_execution_end",
        "turn_end",
        "turn_start",
        "message_start",
        "message_end",
        "turn_end",
        "agent_end",
    ]
    assert shape(messages) == "U A[c1] R(c1) A"
    result = messages[2]
    assert isinstance(result, ToolResultMessage) and result.content[0] == result.content[0]
    assert not result.is_error and "PORT = 9090" in result.content[0].text  # type: ignore[union-attr]


async def test_two_calls_in_one_reply_run_start_result_end_each_when_sequential(workspace: Path) -> None:
    provider = FakeProvider(
        [
            reply(call("read", {"path": "config.py"}, id="c1"), call("read", {"path": "backup.py"}, id="c2")),
            "Done.",
        ]
    )
    config = LoopConfig(provider=provider, tools=[read_tool(workspace)], tool_execution="sequential")
    events, messages = await run(config)
    tool_part = types(events)[6:14]
    assert tool_part == [
        "tool_execution_start",
        "message_start",
        "message_end",
        "tool_execution_end",
        "tool_execution_start",
        "message_start",
        "message_end",
        "tool_execution_end",
    ]
    assert shape(messages) == "U A[c1,c2] R(c1) R(c2) A"


async def test_parallel_calls_start_in_order_then_results_in_source_order(workspace: Path) -> None:
    provider = FakeProvider(
        [
            reply(call("read", {"path": "config.py"}, id="c1"), call("read", {"path": "backup.py"}, id="c2")),
            "Done.",
        ]
    )
    events, messages = await run(LoopConfig(provider=provider, tools=[read_tool(workspace)]))
    assert types(events)[6:14] == [
        "tool_execution_start",
        "tool_execution_start",
        "message_start",
        "message_end",
        "tool_execution_end",
        "message_start",
        "message_end",
        "tool_execution_end",
    ]
    assert shape(messages) == "U A[c1,c2] R(c1) R(c2) A"


async def test_max_turns_stop_is_its_own_turn_with_an_error_reply(workspace: Path) -> None:
    stuck = FakeProvider([reply("Still looking.", call("read", {"path": "config.py"}))], repeat_last=True)
    events, messages = await run(LoopConfig(provider=stuck, tools=[read_tool(workspace)], max_turns=2))
    assert types(events)[-5:] == ["turn_start", "message_start", "message_end", "turn_end", "agent_end"]
    assert types(events).count("turn_start") == 3
    final = messages[-1]
    assert isinstance(final, AssistantMessage)
    assert final.stop_reason == "error" and final.error_message == "Agent stopped after max_turns=2"
    assert stuck.calls == 2


async def test_provider_failure_still_closes_turn_and_run() -> None:
    events, messages = await run(LoopConfig(provider=FakeProvider([fail("500 Internal Server Error")])))
    assert types(events)[-3:] == ["message_end", "turn_end", "agent_end"]
    final = messages[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "error"
    assert final.error_message == "500 Internal Server Error"


async def test_failed_reply_keeps_what_arrived() -> None:
    _, messages = await run(LoopConfig(provider=FakeProvider([fail("connection reset", "Half an ans")])))
    final = messages[-1]
    assert (
        isinstance(final, AssistantMessage) and final.text == "Half an ans" and final.stop_reason == "error"
    )


async def test_second_run_on_same_list_reports_only_its_own_messages(workspace: Path) -> None:
    provider = FakeProvider(["First.", "Second."])
    record: list[AgentMessage] = []
    await run(LoopConfig(provider=provider), "one", record)
    events, _ = await run(LoopConfig(provider=provider), "two", record)
    end = events[-1]
    assert isinstance(end, AgentEndEvent)
    assert shape(end.messages) == "U A" and len(record) == 4
    assert end.messages == record[2:]


async def test_every_message_end_follows_its_append(workspace: Path) -> None:
    provider = FakeProvider(
        [
            reply(call("read", {"path": "config.py"}, id="c1"), call("read", {"path": "backup.py"}, id="c2")),
            "Done.",
        ]
    )
    record: list[AgentMessage] = []
    async for event in run_agent_loop(
        [UserMessage("go")], record, LoopConfig(provider=provider, tools=[read_tool(workspace)])
    ):
        if isinstance(event, MessageEndEvent):
            assert event.message in record


async def test_nothing_runs_until_iterated() -> None:
    provider = FakeProvider(["Hello."])
    record: list[AgentMessage] = []
    generator = run_agent_loop([UserMessage("Hi")], record, LoopConfig(provider=provider))
    assert provider.calls == 0 and record == []
    await generator.aclose()
    assert provider.calls == 0 and record == []
