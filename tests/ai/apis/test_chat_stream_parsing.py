"""Chat Completions chunk handling beyond the recordings: odd tool-call shapes, ends, failures."""

from __future__ import annotations

from tau_agent.content import TextContent, ThinkingContent, ToolCall
from tau_agent.stream_events import ErrorEvent
from tau_ai.apis import wire_api
from tau_ai.sse import SseDecoder
from tests.ai.apis.streams import model_for, run, sse, types

API = "openai-completions"


def chunk(
    delta: dict[str, object] | None = None, finish: str | None = None, **extra: object
) -> dict[str, object]:
    return {"id": "c1", "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}], **extra}


def test_tool_call_pieces_without_index_continue_the_open_call() -> None:
    body = sse(
        chunk({"tool_calls": [{"id": "a", "function": {"name": "read", "arguments": '{"pa'}}]}),
        chunk({"tool_calls": [{"function": {"arguments": 'th": "x"}'}}]}),
        chunk({"tool_calls": [{"id": "b", "function": {"name": "ls", "arguments": "{}"}}]}),
        chunk(finish="tool_calls"),
        "[DONE]",
    )
    _, message = run(API, body)
    assert [(c.id, c.name, c.arguments) for c in message.tool_calls] == [
        ("a", "read", {"path": "x"}),
        ("b", "ls", {}),
    ]
    assert message.stop_reason == "toolUse"


def test_tool_call_without_id_gets_a_positional_id() -> None:
    body = sse(
        chunk({"tool_calls": [{"index": 0, "function": {"name": "read", "arguments": "{}"}}]}), "[DONE]"
    )
    _, message = run(API, body)
    assert message.tool_calls[0].id == "call_0"


def test_reasoning_details_alone_become_thinking() -> None:
    body = sse(
        chunk({"reasoning_details": [{"type": "reasoning.text", "text": "hmm"}]}),
        chunk({"content": "hi"}, "stop"),
        "[DONE]",
    )
    _, message = run(API, body)
    thinking, text = message.content
    assert isinstance(thinking, ThinkingContent) and thinking.thinking == "hmm"
    assert thinking.thinking_signature == "reasoning_details"
    assert isinstance(text, TextContent) and text.text == "hi"


def test_signature_names_the_reasoning_field_once_per_block() -> None:
    body = sse(chunk({"reasoning_content": "a"}), chunk({"reasoning_content": "b"}), "[DONE]")
    _, message = run(API, body)
    block = message.content[0]
    assert isinstance(block, ThinkingContent)
    assert (block.thinking, block.thinking_signature) == ("ab", "reasoning_content")


def test_stream_cut_before_finish_is_an_error_that_keeps_the_text() -> None:
    events, message = run(API, sse(chunk({"content": "partial"})))
    assert types(events)[-1] == "error"
    assert message.stop_reason == "error"
    assert message.error_message == "stream ended unexpectedly"
    assert message.text == "partial"


def test_finish_reason_without_done_marker_still_completes() -> None:
    _, message = run(API, sse(chunk({"content": "ok"}, "stop")))
    assert message.stop_reason == "stop"


def test_length_and_content_filter_finish_reasons() -> None:
    _, message = run(API, sse(chunk({"content": "x"}, "length"), "[DONE]"))
    assert message.stop_reason == "length"
    _, message = run(API, sse(chunk({"content": "x"}, "content_filter"), "[DONE]"))
    assert message.stop_reason == "error"
    assert message.error_message == "Provider stopped the reply: content_filter"


def test_malformed_chunk_ends_the_message_with_an_error() -> None:
    _, message = run(API, sse(chunk({"content": "ok"}), "{not json", "[DONE]"))
    assert message.stop_reason == "error"
    assert message.error_message is not None and message.error_message.startswith("malformed chunk")
    assert message.text == "ok"


def test_error_event_keeps_content_and_usage() -> None:
    body = sse(chunk({"content": "so far"}, usage={"prompt_tokens": 5, "completion_tokens": 2})) + sse(
        {"error": {"message": "upstream\nfailed"}}, event="error"
    )
    _, message = run(API, body, finish=False)
    assert message.error_message == "upstream failed"
    assert message.text == "so far"
    assert (message.usage.input, message.usage.output) == (5, 2)


def test_cached_and_reasoning_tokens_are_split_out_of_usage() -> None:
    usage = {
        "prompt_tokens": 100,
        "completion_tokens": 30,
        "prompt_tokens_details": {"cached_tokens": 60},
        "completion_tokens_details": {"reasoning_tokens": 20},
    }
    _, message = run(API, sse(chunk({"content": "x"}, "stop"), {"choices": [], "usage": usage}, "[DONE]"))
    u = message.usage
    assert (u.input, u.cache_read, u.output, u.reasoning, u.total_tokens) == (40, 60, 30, 20, 130)


def test_nothing_after_the_end_and_fail_after_end_is_ignored() -> None:
    parser = wire_api(API).new_parser(model_for(API))
    decoder = SseDecoder()
    events = []
    for item in decoder.feed(
        sse(chunk({"content": "x"}, "stop"), "[DONE]", chunk({"content": "late"})).encode()
    ):
        events += parser.feed(item)
    assert parser.ended and types(events)[-1] == "done"
    assert parser.finish() == [] and parser.fail("aborted", "late cancel") == []


def test_abort_from_outside_keeps_what_arrived() -> None:
    parser = wire_api(API).new_parser(model_for(API))
    for item in SseDecoder().feed(
        sse(
            chunk(
                {"tool_calls": [{"index": 0, "id": "t", "function": {"name": "w", "arguments": '{"a": "b'}}]}
            )
        ).encode()
    ):
        parser.feed(item)
    events = parser.fail("aborted", "cancelled by user")
    assert types(events) == ["toolcall_end", "error"]
    call = events[0].partial.content[0]
    assert isinstance(call, ToolCall) and call.arguments == {"a": "b"}
    assert isinstance(events[-1], ErrorEvent)
    assert events[-1].message.stop_reason == "aborted"
    assert events[-1].message.error_message == "cancelled by user"
