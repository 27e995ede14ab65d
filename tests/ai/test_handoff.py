"""Cross-provider handoff: what a transcript looks like when replayed on another model."""

from __future__ import annotations

import copy
import re

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_ai.handoff import NO_RESULT_TEXT, normalize_tool_id, transform_messages
from tau_ai.model import Model

CLAUDE = Model(id="claude-sonnet-4-5", api="anthropic-messages", provider="anthropic", base_url="")
GPT = Model(id="gpt-5", api="openai-responses", provider="openai", base_url="")
MISTRAL = Model(id="mistral-large-latest", api="mistral-conversations", provider="mistral", base_url="")
RESPONSES_ID = "call_Xy12|fc_" + "a" * 60


def reply(model: Model, *blocks: object, stop: str = "stop") -> AssistantMessage:
    return AssistantMessage(
        list(blocks),  # type: ignore[arg-type]
        api=model.api,
        provider=model.provider,
        model=model.id,
        stop_reason=stop,  # type: ignore[arg-type]
    )


def result(call_id: str, text: str = "ok") -> ToolResultMessage:
    return ToolResultMessage(call_id, "read", [TextContent(text)])


def test_same_model_keeps_everything_verbatim() -> None:
    message = reply(
        CLAUDE,
        ThinkingContent("plan", thinking_signature="sig"),
        ThinkingContent("", thinking_signature="enc", redacted=True),
        TextContent("hi", text_signature="ts"),
    )
    out = transform_messages([UserMessage("q"), message], CLAUDE)
    assert out[1] is message


def test_another_models_thinking_becomes_text_and_signatures_are_dropped() -> None:
    message = reply(
        CLAUDE,
        ThinkingContent("plan it", thinking_signature="sig"),
        ThinkingContent("", thinking_signature="enc", redacted=True),
        ThinkingContent("   ", thinking_signature="empty"),
        TextContent("answer", text_signature="ts"),
        ToolCall("toolu_1", "read", {"path": "a"}, thought_signature="gsig"),
    )
    out = transform_messages([UserMessage("q"), message, result("toolu_1")], GPT)
    assert isinstance(out[1], AssistantMessage)
    blocks = out[1].content
    assert blocks == [
        TextContent("plan it"),
        TextContent("answer"),
        ToolCall("toolu_1", "read", {"path": "a"}),
    ]
    assert message.content[0] == ThinkingContent("plan it", thinking_signature="sig")  # input untouched


def test_foreign_tool_ids_are_normalised_and_results_follow() -> None:
    call = ToolCall(RESPONSES_ID, "read", {})
    out = transform_messages([UserMessage("q"), reply(GPT, call), result(RESPONSES_ID)], CLAUDE)
    new_call = out[1].content[0]  # type: ignore[union-attr]
    assert isinstance(new_call, ToolCall)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", new_call.id)
    assert isinstance(out[2], ToolResultMessage) and out[2].tool_call_id == new_call.id
    assert normalize_tool_id(RESPONSES_ID, "anthropic-messages") == new_call.id  # stable


def test_mistral_gets_nine_alphanumeric_ids() -> None:
    out = transform_messages(
        [UserMessage("q"), reply(CLAUDE, ToolCall("toolu_01A", "read")), result("toolu_01A")], MISTRAL
    )
    call_id = out[1].content[0].id  # type: ignore[union-attr]
    assert re.fullmatch(r"[A-Za-z0-9]{9}", call_id)
    assert out[2].tool_call_id == call_id  # type: ignore[union-attr]


def test_distinct_ids_stay_distinct_after_normalisation() -> None:
    a, b = "call|1" + "x" * 70, "call|2" + "x" * 70
    assert normalize_tool_id(a, "anthropic-messages") != normalize_tool_id(b, "anthropic-messages")
    assert normalize_tool_id(a, "mistral-conversations") != normalize_tool_id(b, "mistral-conversations")


def test_ids_from_the_same_api_are_kept_even_from_another_model() -> None:
    other_gpt = Model(id="gpt-5-mini", api="openai-responses", provider="openai", base_url="")
    call = ToolCall(RESPONSES_ID, "read", {})
    out = transform_messages([UserMessage("q"), reply(other_gpt, call), result(RESPONSES_ID)], GPT)
    assert out[1].content[0].id == RESPONSES_ID  # type: ignore[union-attr]


def test_failed_and_aborted_replies_are_dropped_with_their_results() -> None:
    messages: list[LlmMessage] = [
        UserMessage("q"),
        reply(CLAUDE, TextContent("partial"), ToolCall("t1", "read"), stop="aborted"),
        result("t1", "cancelled"),
        reply(CLAUDE, TextContent("oops"), stop="error"),
        UserMessage("again"),
    ]
    out = transform_messages(messages, CLAUDE)
    assert [m.role for m in out] == ["user", "user"]


def test_orphaned_tool_calls_get_an_error_result_before_the_next_message() -> None:
    messages: list[LlmMessage] = [
        UserMessage("q"),
        reply(CLAUDE, ToolCall("t1", "read"), ToolCall("t2", "bash")),
        result("t1"),
        UserMessage("stop that"),
    ]
    out = transform_messages(messages, CLAUDE)
    assert [m.role for m in out] == ["user", "assistant", "toolResult", "toolResult", "user"]
    synthetic = out[3]
    assert isinstance(synthetic, ToolResultMessage)
    assert (synthetic.tool_call_id, synthetic.tool_name, synthetic.is_error) == ("t2", "bash", True)
    assert synthetic.content == [TextContent(NO_RESULT_TEXT)]


def test_trailing_orphan_is_closed_too() -> None:
    out = transform_messages([UserMessage("q"), reply(CLAUDE, ToolCall("t1", "read"))], CLAUDE)
    assert [m.role for m in out] == ["user", "assistant", "toolResult"]


def test_a_result_without_a_call_is_dropped() -> None:
    out = transform_messages([UserMessage("q"), result("ghost")], CLAUDE)
    assert [m.role for m in out] == ["user"]


def test_lone_surrogates_become_replacement_characters() -> None:
    user = UserMessage([TextContent("bad \ud83d end"), ImageContent("AAAA", "image/png")])
    out = transform_messages([user, reply(GPT, TextContent("x\udc00"))], CLAUDE)
    assert out[0].content[0].text == "bad \ufffd end"  # type: ignore[union-attr,index]
    assert out[1].content[0].text == "x\ufffd"  # type: ignore[union-attr]
    assert user.content[0].text == "bad \ud83d end"  # type: ignore[union-attr,index]


def test_transform_is_idempotent_and_pure() -> None:
    messages: list[LlmMessage] = [
        UserMessage("q"),
        reply(GPT, ThinkingContent("t", thinking_signature="s"), ToolCall(RESPONSES_ID, "read", {"a": 1})),
        result(RESPONSES_ID),
        reply(GPT, TextContent("done"), ToolCall("call_2|fc_2", "bash")),
    ]
    before = copy.deepcopy(messages)
    once = transform_messages(messages, CLAUDE)
    assert transform_messages(once, CLAUDE) == once
    assert messages == before


def test_a_result_repeated_for_one_call_is_kept_and_nothing_is_closed_after_it() -> None:
    """Every call answered (one twice): the user message after them needs no error result."""
    messages: list[LlmMessage] = [
        UserMessage("q"),
        reply(CLAUDE, ToolCall("t1", "read"), ToolCall("t2", "read")),
        result("t1", "first"),
        result("t2"),
        result("t1", "again"),
        UserMessage("next"),
    ]
    out = transform_messages(messages, CLAUDE)
    assert out == messages


def test_calls_sharing_an_id_are_answered_by_one_result() -> None:
    messages: list[LlmMessage] = [
        UserMessage("q"),
        reply(CLAUDE, ToolCall("t1", "read"), ToolCall("t1", "bash")),
        result("t1"),
        UserMessage("next"),
        reply(CLAUDE, ToolCall("t3", "read"), ToolCall("t4", "read")),
        result("t4"),
        UserMessage("last"),
    ]
    out = transform_messages(messages, CLAUDE)
    assert [m.role for m in out] == [
        *["user", "assistant", "toolResult", "user"],
        *["assistant", "toolResult", "toolResult", "user"],
    ]
    closed = out[6]
    assert isinstance(closed, ToolResultMessage) and (closed.tool_call_id, closed.is_error) == ("t3", True)
