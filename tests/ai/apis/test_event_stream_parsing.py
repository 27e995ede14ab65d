"""Responses, Anthropic, Gemini and Mistral streams: failures and shapes the recordings lack."""

from __future__ import annotations

from tau_agent.content import TextContent, ThinkingContent
from tests.ai.apis.streams import run, sse, types

RESPONSES, ANTHROPIC, GOOGLE, MISTRAL = (
    "openai-responses",
    "anthropic-messages",
    "google-generative-ai",
    "mistral-conversations",
)


def test_responses_failed_event_ends_with_the_provider_message() -> None:
    body = sse(
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "item": {"type": "message", "id": "msg_1"}},
        {"type": "response.output_text.delta", "delta": "par"},
        {
            "type": "response.failed",
            "response": {"error": {"code": "server_error", "message": "The server broke"}},
        },
    )
    _, message = run(RESPONSES, body, finish=False)
    assert (message.stop_reason, message.error_message, message.text) == ("error", "The server broke", "par")
    assert message.response_id == "resp_1"


def test_responses_incomplete_for_max_tokens_is_length() -> None:
    body = sse(
        {"type": "response.output_text.delta", "delta": "x"},
        {
            "type": "response.incomplete",
            "response": {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}},
        },
    )
    _, message = run(RESPONSES, body, finish=False)
    assert message.stop_reason == "length"


def test_responses_error_event_and_cut_stream() -> None:
    _, message = run(
        RESPONSES, sse({"type": "error", "message": "rate limited", "code": "rate_limit"}), finish=False
    )
    assert message.error_message == "rate limited"
    _, message = run(RESPONSES, sse({"type": "response.output_text.delta", "delta": "x"}))
    assert message.error_message == "stream ended unexpectedly"


def test_responses_summary_parts_are_joined_by_blank_lines() -> None:
    body = sse(
        {"type": "response.output_item.added", "item": {"type": "reasoning", "id": "rs_1"}},
        {"type": "response.reasoning_summary_part.added", "summary_index": 0},
        {"type": "response.reasoning_summary_text.delta", "delta": "one"},
        {"type": "response.reasoning_summary_part.added", "summary_index": 1},
        {"type": "response.reasoning_summary_text.delta", "delta": "two"},
        {"type": "response.output_item.done", "item": {"type": "reasoning", "id": "rs_1", "summary": []}},
        {"type": "response.completed", "response": {"status": "completed"}},
    )
    _, message = run(RESPONSES, body, finish=False)
    block = message.content[0]
    assert isinstance(block, ThinkingContent) and block.thinking == "one\n\ntwo"
    assert block.thinking_signature == '{"type":"reasoning","id":"rs_1","summary":[]}'


def anthropic_start() -> dict[str, object]:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "usage": {"input_tokens": 10, "cache_read_input_tokens": 90, "output_tokens": 1},
        },
    }


def test_anthropic_overloaded_error_mid_stream_keeps_text_and_usage() -> None:
    body = sse(
        anthropic_start(),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel"}},
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    )
    events, message = run(ANTHROPIC, body, finish=False)
    assert types(events)[-2:] == ["text_end", "error"]
    assert (message.error_message, message.text) == ("Overloaded", "Hel")
    assert (message.usage.input, message.usage.cache_read) == (10, 90)


def test_anthropic_stop_reasons() -> None:
    for reason, expected in (("max_tokens", "length"), ("refusal", "error"), ("end_turn", "stop")):
        body = sse(
            anthropic_start(),
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "a"}},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": reason}, "usage": {"output_tokens": 7}},
            {"type": "message_stop"},
        )
        _, message = run(ANTHROPIC, body, finish=False)
        assert message.stop_reason == expected
        assert message.usage.output == 7
        assert message.text == "a"


def test_anthropic_stream_cut_before_message_stop_is_an_error() -> None:
    body = sse(
        anthropic_start(), {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}}
    )
    _, message = run(ANTHROPIC, body)
    assert message.error_message == "stream ended unexpectedly"


def test_gemini_error_object_in_a_200_stream() -> None:
    body = sse(
        {"candidates": [{"content": {"parts": [{"text": "Hi"}]}}]},
        {"error": {"code": 500, "message": "Internal error encountered.", "status": "INTERNAL"}},
    )
    _, message = run(GOOGLE, body, finish=False)
    assert (message.error_message, message.text) == ("Internal error encountered.", "Hi")


def test_gemini_calls_get_distinct_stable_ids_and_signatures() -> None:
    call = {"functionCall": {"name": "read", "args": {"path": "a"}}, "thoughtSignature": "sig1"}
    body = sse(
        {
            "responseId": "r1",
            "candidates": [{"content": {"parts": [call, {"functionCall": {"name": "ls"}}]}}],
        },
        {"candidates": [{"content": {"parts": []}, "finishReason": "STOP"}]},
    )
    _, first = run(GOOGLE, body)
    _, again = run(GOOGLE, body)
    ids = [c.id for c in first.tool_calls]
    assert ids == ["call_r1_1", "call_r1_2"] == [c.id for c in again.tool_calls]
    assert first.tool_calls[0].thought_signature == "sig1"
    assert first.tool_calls[1].arguments == {}
    assert first.stop_reason == "toolUse"


def test_gemini_safety_stop_is_an_error_and_no_finish_is_a_cut() -> None:
    body = sse({"candidates": [{"content": {"parts": [{"text": "x"}]}, "finishReason": "SAFETY"}]})
    _, message = run(GOOGLE, body)
    assert message.error_message == "Gemini stopped the reply: SAFETY"
    _, message = run(GOOGLE, sse({"candidates": [{"content": {"parts": [{"text": "x"}]}}]}))
    assert message.error_message == "stream ended unexpectedly"


def test_gemini_signature_only_part_attaches_to_the_text_before_it() -> None:
    body = sse(
        {"candidates": [{"content": {"parts": [{"text": "Hello"}]}}]},
        {
            "candidates": [
                {"content": {"parts": [{"text": "", "thoughtSignature": "sig"}]}, "finishReason": "STOP"}
            ]
        },
    )
    _, message = run(GOOGLE, body)
    block = message.content[0]
    assert isinstance(block, TextContent) and block.text_signature == "sig"


def test_mistral_typed_text_and_thinking_chunks() -> None:
    body = sse(
        {
            "choices": [
                {"delta": {"content": [{"type": "thinking", "thinking": [{"type": "text", "text": "hm"}]}]}}
            ]
        },
        {"choices": [{"delta": {"content": [{"type": "text", "text": "Yes"}]}, "finish_reason": "stop"}]},
        "[DONE]",
    )
    _, message = run(MISTRAL, body)
    thinking, text = message.content
    assert isinstance(thinking, ThinkingContent) and thinking.thinking == "hm"
    assert isinstance(text, TextContent) and text.text == "Yes"
    assert message.api == "mistral-conversations"


def test_responses_reasoning_sent_only_with_its_finished_item_is_the_thinking() -> None:
    """Found in real use against a local server: no summary deltas, the summary only in the
    item itself. The thinking block kept an empty text (the TUI showed no thinking at all)."""
    item = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "one"}]}
    body = sse(
        {"type": "response.output_item.added", "item": item},
        {"type": "response.output_item.done", "item": item},
        {"type": "response.completed", "response": {"status": "completed"}},
    )
    events, message = run(RESPONSES, body, finish=False)
    block = message.content[0]
    assert isinstance(block, ThinkingContent) and block.thinking == "one"
    assert types(events) == ["start", "thinking_start", "thinking_delta", "thinking_end", "done"]


def test_responses_raw_reasoning_text_of_a_finished_item_is_the_thinking() -> None:
    item = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": "raw"}],
    }
    body = sse(
        {"type": "response.output_item.done", "item": item},
        {"type": "response.completed", "response": {"status": "completed"}},
    )
    events, message = run(RESPONSES, body, finish=False)
    block = message.content[0]
    assert isinstance(block, ThinkingContent) and block.thinking == "raw"
    assert types(events).count("thinking_start") == types(events).count("thinking_end") == 1
