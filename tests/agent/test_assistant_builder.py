"""AssistantMessageBuilder: the canonical event grammar of every stream."""

from __future__ import annotations

from tau_agent.assistant_builder import AssistantMessageBuilder
from tau_agent.content import TextContent, ThinkingContent, ToolCall
from tau_agent.stream_events import DoneEvent, ErrorEvent, ToolCallEndEvent


def _types(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.type for e in events]


def test_switching_block_kinds_closes_the_open_block_first() -> None:
    b = AssistantMessageBuilder(api="a", provider="p", model="m")
    events = b.thinking_delta("hmm") + b.text_delta("Hi") + b.text_delta("!") + b.finish()
    assert _types(events) == [
        "start",
        "thinking_start",
        "thinking_delta",
        "thinking_end",
        "text_start",
        "text_delta",
        "text_delta",
        "text_end",
        "done",
    ]
    assert b.message.content == [ThinkingContent("hmm"), TextContent("Hi!")]
    assert [e.content_index for e in events[1:-1]] == [0, 0, 0, 1, 1, 1, 1]  # type: ignore[union-attr]


def test_every_event_carries_the_same_partial_object() -> None:
    b = AssistantMessageBuilder()
    events = b.text_delta("a") + b.text_delta("b")
    assert {id(e.partial) for e in events} == {id(b.message)}  # type: ignore[union-attr]


def test_tool_call_arguments_follow_the_streamed_json() -> None:
    b = AssistantMessageBuilder()
    b.tool_call_start("c1", "write")
    b.tool_call_delta('{"path": "a.txt", "content": "hel')
    call = b.message.content[0]
    assert isinstance(call, ToolCall) and call.arguments == {"path": "a.txt", "content": "hel"}
    b.tool_call_delta('lo"}')
    events = b.finish()
    assert _types(events) == ["toolcall_end", "done"]
    end = events[0]
    assert isinstance(end, ToolCallEndEvent) and end.tool_call.arguments == {
        "path": "a.txt",
        "content": "hello",
    }
    done = events[1]
    assert isinstance(done, DoneEvent) and done.reason == "toolUse"


def test_empty_tool_input_becomes_an_empty_object() -> None:
    b = AssistantMessageBuilder()
    b.tool_call_start("c1", "ls")
    b.finish()
    assert b.message.tool_calls[0].arguments == {}


def test_large_arguments_are_reparsed_a_logarithmic_number_of_times() -> None:
    b = AssistantMessageBuilder()
    b.tool_call_start("c1", "write")
    b.tool_call_delta('{"content": "')
    for _ in range(20_000):
        b.tool_call_delta("x")
    content = b.message.tool_calls[0].arguments["content"]
    assert 17_000 < len(content) <= 20_000  # nearly current, at most an eighth behind
    b.tool_call_delta('"}')
    b.finish()
    assert len(b.message.tool_calls[0].arguments["content"]) == 20_000


def test_failure_keeps_what_arrived_and_ends_once() -> None:
    b = AssistantMessageBuilder()
    b.text_delta("partial ans")
    events = b.fail("error", "connection reset")
    assert _types(events) == ["text_end", "error"]
    err = events[-1]
    assert isinstance(err, ErrorEvent) and err.message.text == "partial ans"
    assert err.message.stop_reason == "error" and err.message.error_message == "connection reset"
    assert b.finish() == [] and b.fail("aborted", "x") == []


def test_finish_without_content_still_starts_and_ends() -> None:
    b = AssistantMessageBuilder()
    assert _types(b.finish("length")) == ["start", "done"]
    assert b.message.stop_reason == "length"


def test_whole_tool_call_emits_start_delta_end() -> None:
    b = AssistantMessageBuilder()
    events = b.tool_call("g1", "read", {"path": "x"}, thought_signature="sig")
    assert _types(events) == ["start", "toolcall_start", "toolcall_delta", "toolcall_end"]
    assert b.message.tool_calls[0] == ToolCall("g1", "read", {"path": "x"}, "sig")


def test_signature_attaches_to_open_thinking_block() -> None:
    b = AssistantMessageBuilder()
    b.thinking_delta("reason")
    b.set_signature("abc")
    b.set_signature("def")
    b.finish()
    block = b.message.content[0]
    assert isinstance(block, ThinkingContent) and block.thinking_signature == "abcdef"


def test_a_repeated_or_empty_call_id_gets_an_id_of_its_own() -> None:
    b = AssistantMessageBuilder()
    for call_id in ("dup", "dup", "", "dup_1", ""):
        b.tool_call_start(call_id, "read")
        b.tool_call_delta('{"path": "a"}')
    b.finish()
    ids = [c.id for c in b.message.tool_calls]
    assert ids[0] == "dup" and len(set(ids)) == 5, ids


def test_finished_arguments_that_are_not_a_json_object_are_an_error_saying_what_arrived() -> None:
    b = AssistantMessageBuilder()
    for raw in ('{"command": "rm -rf build/ca', "{'path': 'a'}", "[1]", '"{\\"path\\": \\"a\\"}"', "null"):
        b.tool_call_start("c", "bash")
        b.tool_call_delta(raw)
    b.finish()
    cut, quoted, array, twice, null = b.message.tool_calls
    assert cut.arguments == {"command": "rm -rf build/ca"}  # salvaged for display only
    assert cut.arguments_error is not None and cut.arguments_error.startswith(
        "Tool call not run: its arguments are not valid JSON (Unterminated string"
    )
    assert cut.arguments_error.endswith('Received:\n{"command": "rm -rf build/ca')
    assert quoted.arguments == {} and "not valid JSON" in (quoted.arguments_error or "")
    assert "not a JSON object but list" in (array.arguments_error or "")
    assert (twice.arguments, twice.arguments_error) == ({"path": "a"}, None)  # encoded twice: unwrapped
    assert (null.arguments, null.arguments_error) == ({}, None)
