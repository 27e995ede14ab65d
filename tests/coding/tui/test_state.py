"""TuiState folded from real harness events (FakeProvider, real tools), without Textual."""

from __future__ import annotations

from pathlib import Path

from tau_agent.content import TextContent, ToolCall
from tau_agent.events import AgentEndEvent, MessageEndEvent, ToolExecutionEndEvent, ToolExecutionStartEvent
from tau_agent.harness import AgentHarness
from tau_agent.messages import (
    AssistantMessage,
    BashExecutionMessage,
    CompactionSummaryMessage,
    Cost,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tau_agent.testing import FakeProvider, call, fail, reply, text, thinking
from tau_agent.tools import AgentToolResult
from tau_coding.tui.items import RunNotice
from tau_coding.tui.state import (
    AssistantItem,
    BashItem,
    ErrorItem,
    NoticeItem,
    ToolItem,
    TuiState,
    UserItem,
    apply,
    discount_wait,
    from_messages,
    queue_message,
    take_queue,
)

from .helpers import edit_tool, run_events, shell_tool


def kinds(state: TuiState) -> list[str]:
    return [type(item).__name__.removesuffix("Item") for item in state.items]


async def fold(harness: AgentHarness, prompt: str, state: TuiState | None = None) -> TuiState:
    state = state if state is not None else TuiState()
    for now, event in enumerate(await run_events(harness, prompt)):
        apply(state, event, float(now))
    return state


async def test_streamed_reply_becomes_one_assistant_item_holding_the_final_text() -> None:
    harness = AgentHarness(FakeProvider([reply(thinking("plan"), text("Hello **there**", chunk_size=3))]))
    state = await fold(harness, "hi")
    assert kinds(state) == ["User", "Assistant"]
    first, second = state.items
    assert isinstance(first, UserItem) and first.text == "hi"
    assert isinstance(second, AssistantItem) and second.done
    assert second.message.text == "Hello **there**"
    assert state.status == "idle" and state.turns == 1


async def test_each_delta_marks_only_the_streaming_item_changed() -> None:
    harness = AgentHarness(FakeProvider([reply(text("abcdefghij", chunk_size=1))]))
    state = TuiState()
    events = await run_events(harness, "go")
    updates = [e for e in events if e.type == "message_update"]
    assert len(updates) >= 10
    first_update = events.index(updates[0])
    for event in events[:first_update]:
        apply(state, event, 0.0)
    changes = state.take_changes()
    assert list(changes.appended) == [0, 1]  # the user message and the reply, mounted once
    for event in updates:
        apply(state, event, 0.0)
        changes = state.take_changes()
        assert not changes.appended and changes.updated == {1}


async def test_tool_row_goes_from_pending_to_ok_with_output_and_times(tmp_path: Path) -> None:
    harness = AgentHarness(
        FakeProvider([reply(call("bash", {"command": "printf 'one\\ntwo\\n'"})), reply("done")]),
        tools=[shell_tool()],
    )
    state = await fold(harness, "run it")
    assert kinds(state) == ["User", "Assistant", "Tool", "Assistant"]
    tool = state.items[2]
    assert isinstance(tool, ToolItem)
    assert tool.status == "ok" and tool.output == "one\ntwo\n"
    assert tool.args == {"command": "printf 'one\\ntwo\\n'"}
    assert tool.started is not None and tool.ended is not None and tool.ended > tool.started
    assert state.tool_calls == 1 and state.turns == 2


def test_a_dialogs_wait_is_left_out_of_the_running_tools_times_only() -> None:
    state = TuiState()
    apply(state, ToolExecutionStartEvent("a", "bash", {"command": "x"}), 10.0)
    apply(state, ToolExecutionStartEvent("b", "bash", {"command": "y"}), 10.0)
    apply(state, ToolExecutionEndEvent("b", "bash", AgentToolResult.text("done"), False), 11.0)
    state.take_changes()
    discount_wait(state, 5.0)
    running, done = (state.items[state.tool_index(i) or 0] for i in "ab")
    assert isinstance(running, ToolItem) and isinstance(done, ToolItem)
    assert running.started == 15.0 and done.started == 10.0 and done.ended == 11.0
    assert state.take_changes().updated == {state.tool_index("a")}


async def test_partial_tool_output_replaces_the_previous_one() -> None:
    harness = AgentHarness(
        FakeProvider([reply(call("bash", {"command": "echo a; echo b"})), reply("ok")]),
        tools=[shell_tool()],
    )
    state = TuiState()
    seen: list[str] = []
    for event in await run_events(harness, "go"):
        apply(state, event, 0.0)
        if event.type == "tool_execution_update":
            tool = state.items[state.tool_index(event.tool_call_id) or 0]
            assert isinstance(tool, ToolItem) and tool.status == "running"
            seen.append(tool.output)
    assert seen == ["a\n", "a\nb\n"]


async def test_failing_tool_is_an_error_row(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    harness = AgentHarness(
        FakeProvider([reply(call("edit", {"path": "f.txt", "old": "nope", "new": "y"})), reply("sorry")]),
        tools=[edit_tool(tmp_path)],
    )
    state = await fold(harness, "edit")
    tool = state.items[2]
    assert isinstance(tool, ToolItem) and tool.status == "error"
    assert "old text not found" in tool.output


async def test_edit_result_keeps_the_diff_in_details(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text("print(1)\n")
    harness = AgentHarness(
        FakeProvider([reply(call("edit", {"path": "f.py", "old": "1", "new": "2"})), reply("done")]),
        tools=[edit_tool(tmp_path)],
    )
    state = await fold(harness, "edit")
    tool = state.items[2]
    assert isinstance(tool, ToolItem) and tool.status == "ok"
    assert "-print(1)\n+print(2)" in tool.details["diff"]


async def test_provider_error_adds_an_error_item_saying_what_to_do() -> None:
    harness = AgentHarness(FakeProvider([fail("HTTP 529: overloaded", "partial ")]))
    state = await fold(harness, "hi")
    assert kinds(state) == ["User", "Assistant", "Error"]
    error = state.items[2]
    assert isinstance(error, ErrorItem)
    assert "overloaded" in error.message and "retry" in error.hint


async def test_usage_and_cost_sum_over_replies_and_context_follows_the_latest() -> None:
    usage = Usage(input=100, output=20, cache_read=50, cache_write=5, cost=Cost(total=0.01))
    harness = AgentHarness(
        FakeProvider([reply(call("bash", {"command": "true"}), usage=usage), reply("done", usage=usage)]),
        tools=[shell_tool()],
    )
    state = await fold(harness, "go")
    assert (state.usage.input, state.usage.output, state.usage.cache_read, state.usage.cache_write) == (
        200,
        40,
        100,
        10,
    )
    assert abs(state.usage.cost - 0.02) < 1e-9
    assert state.context_tokens == 175


async def test_steered_message_leaves_the_queue_when_it_is_delivered() -> None:
    harness = AgentHarness(
        FakeProvider([reply(call("bash", {"command": "true"})), reply("noted")]), tools=[shell_tool()]
    )
    state = TuiState()
    events = harness.prompt("start")
    async for event in events:
        apply(state, event, 0.0)
        if isinstance(event, ToolExecutionStartEvent):
            harness.steer("change of plan")
            queue_message(state, "steer", "change of plan")
            assert [q.text for q in state.queue] == ["change of plan"]
    assert state.queue == []
    assert [i.text for i in state.items if isinstance(i, UserItem)] == ["start", "change of plan"]


def test_take_queue_empties_it_and_reports_a_change() -> None:
    state = TuiState()
    queue_message(state, "steer", "a")
    queue_message(state, "follow_up", "b")
    state.take_changes()
    taken = take_queue(state)
    assert [(q.kind, q.text) for q in taken] == [("steer", "a"), ("follow_up", "b")]
    assert state.queue == [] and state.take_changes().queue


async def test_cancelled_run_closes_open_tool_rows_and_says_so() -> None:
    harness = AgentHarness(FakeProvider([reply(call("bash", {"command": "sleep 5"}), "ignored")]))
    state = TuiState()
    async for event in harness.prompt("go"):
        apply(state, event, 1.0)
        if event.type == "message_update" and event.assistant_message_event.type == "toolcall_end":
            harness.cancel()
    assert state.status == "idle"
    tool = next(i for i in state.items if isinstance(i, ToolItem))
    assert tool.status == "error"
    assert any(isinstance(i, NoticeItem) and "Cancelled" in i.text for i in state.items)


def test_loaded_session_pairs_tool_results_with_their_calls() -> None:
    call_msg = AssistantMessage([TextContent("reading"), ToolCall("c1", "read", {"path": "a.py"})])
    messages = [
        UserMessage("look at a.py"),
        call_msg,
        ToolResultMessage("c1", "read", [TextContent("print(1)")]),
        AssistantMessage([TextContent("It prints 1.")]),
        BashExecutionMessage("ls", "a.py\n", 0, exclude_from_context=True),
        CompactionSummaryMessage("earlier work", tokens_before=12345),
    ]
    state = from_messages(messages)
    assert kinds(state) == ["User", "Assistant", "Tool", "Assistant", "Bash", "Notice"]
    tool = state.items[2]
    assert isinstance(tool, ToolItem) and tool.status == "ok" and tool.output == "print(1)"
    bash = state.items[4]
    assert isinstance(bash, BashItem) and bash.excluded
    notice = state.items[5]
    assert isinstance(notice, NoticeItem) and notice.tone == "compaction" and "12,345" in notice.text
    assert list(state.take_changes().appended) == list(range(6))


def test_loading_ten_thousand_messages_is_one_pass() -> None:
    messages = [
        UserMessage(f"q{i}") if i % 2 == 0 else AssistantMessage([TextContent(f"a{i}")])
        for i in range(10_000)
    ]
    state = from_messages(messages)
    assert len(state.items) == 10_000


def test_message_end_without_start_still_shows_the_reply() -> None:
    state = TuiState()
    stopped = AssistantMessage([TextContent("Agent stopped after max_turns=1")])
    apply(state, MessageEndEvent(stopped), 0.0)
    apply(state, AgentEndEvent([stopped]), 0.0)
    assert kinds(state) == ["Assistant"] and state.status == "idle"


def test_custom_messages_use_the_renderer_when_one_draws_them() -> None:
    from tau_agent.messages import CustomMessage
    from tau_coding.tui.state import NoticeItem, from_messages

    def render(message: CustomMessage) -> str | None:
        return f"[{message.custom_type}] {message.content}" if message.custom_type == "todo" else None

    state = from_messages([CustomMessage("todo", "write tests"), CustomMessage("note", "plain")], render)
    assert [i.text for i in state.items if isinstance(i, NoticeItem)] == ["[todo] write tests", "plain"]


async def test_an_empty_or_reasoning_only_reply_gets_a_line_saying_so() -> None:
    harness = AgentHarness(FakeProvider([reply(), reply(thinking("hmm")), reply("fine")]))
    lines = []
    for prompt in ("a", "b", "c"):
        state = await fold(harness, prompt)
        lines.append([i.text for i in state.items if isinstance(i, NoticeItem)])
    assert lines == [
        ["The model sent an empty reply; send a message to ask again."],
        ["The model's reply held only reasoning, no answer; send a message to ask again."],
        [],
    ]


def test_after_a_compaction_the_context_size_waits_for_a_reply_made_after_it() -> None:
    def answer(tokens: int, at: int) -> AssistantMessage:
        return AssistantMessage([TextContent("ok")], usage=Usage(input=tokens), timestamp=at)

    summary = CompactionSummaryMessage("earlier work", tokens_before=40_000, timestamp=2_000)
    kept = [UserMessage("q", timestamp=1_000), answer(38_000, 1_100)]  # measured the old context
    state = from_messages([summary, *kept])
    assert state.context_tokens is None  # the footer shows the session's estimate instead
    state = from_messages([summary, *kept, UserMessage("next", timestamp=3_000), answer(9_000, 3_100)])
    assert state.context_tokens == 9_000
    live = from_messages([UserMessage("q"), answer(38_000, 1_100)])
    apply(live, RunNotice("Context compacted", "compaction", compacting=False), 0.0)
    assert live.context_tokens is None
