"""No stream makes a parser raise: whatever arrives, a message ends exactly once.

Events are drawn as arbitrary JSON and as JSON shaped like each API's chunks with arbitrary
values in every slot, mixed with non-JSON data, ``[DONE]`` and named events.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.content import TextContent, ThinkingContent
from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_agent.wire import message_to_dict
from tau_ai.apis import MODULES, wire_api
from tau_ai.sse import SseEvent
from tests.ai.apis.streams import model_for

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
# Mostly well-typed values, often not: the slots where a parser must check what it gets.
TEXT = st.text(max_size=6) | JSON
KIND = st.sampled_from(
    [
        *("text", "thinking", "tool_use", "redacted_thinking", "reasoning", "function_call", "message"),
        *("text_delta", "thinking_delta", "input_json_delta", "signature_delta"),
    ]
)


def obj(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A dict with any subset of ``fields`` (each maybe ill-typed) or, rarely, arbitrary JSON."""
    return st.fixed_dictionaries({}, optional=fields)


BLOCK = obj(
    type=KIND,
    text=TEXT,
    thinking=TEXT,
    signature=TEXT,
    partial_json=TEXT,
    data=TEXT,
    id=TEXT,
    name=TEXT,
    input=JSON,
    call_id=TEXT,
    arguments=TEXT,
    phase=TEXT,
    stop_reason=TEXT,
)
USAGE = obj(
    input_tokens=JSON,
    output_tokens=JSON,
    prompt_tokens=JSON,
    completion_tokens=JSON,
    promptTokenCount=JSON,
    candidatesTokenCount=JSON,
    thoughtsTokenCount=JSON,
)
ANTHROPIC_TYPES = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "error",
]
RESPONSES_TYPES = [
    "response.created",
    "response.output_item.added",
    "response.output_item.done",
    "response.output_text.delta",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_text.delta",
    "response.completed",
    "response.incomplete",
    "response.failed",
    "error",
]


def typed(types: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"type": st.sampled_from(types)},
        optional={
            "delta": BLOCK | TEXT,
            "content_block": BLOCK,
            "item": BLOCK,
            "arguments": TEXT,
            "summary_index": JSON,
            "message": obj(id=TEXT, usage=USAGE),
            "usage": USAGE,
            "response": obj(id=TEXT, status=TEXT, usage=USAGE, error=JSON, incomplete_details=JSON),
        },
    )


CHOICE = obj(
    delta=obj(
        content=TEXT | st.lists(BLOCK, max_size=2),
        reasoning=TEXT,
        reasoning_content=TEXT,
        reasoning_details=st.lists(BLOCK, max_size=2) | JSON,
        tool_calls=st.lists(
            obj(index=JSON, id=TEXT, function=obj(name=TEXT, arguments=TEXT | JSON)), max_size=2
        )
        | JSON,
    ),
    finish_reason=st.sampled_from(["stop", "length", "tool_calls", "content_filter"]) | JSON,
)
CHUNK = obj(choices=st.lists(CHOICE, max_size=2) | JSON, usage=USAGE | JSON, error=JSON, x_groq=JSON, id=TEXT)
PART = obj(text=TEXT, thought=JSON, thoughtSignature=TEXT, functionCall=obj(name=TEXT, args=JSON, id=TEXT))
GEMINI = obj(
    candidates=st.lists(
        obj(
            content=obj(parts=st.lists(PART, max_size=3) | JSON),
            finishReason=st.sampled_from(["STOP", "MAX_TOKENS", "SAFETY"]) | JSON,
        ),
        max_size=2,
    ),
    usageMetadata=USAGE | JSON,
    error=JSON,
    responseId=TEXT,
)
SHAPES = {
    "openai-completions": CHUNK,
    "mistral-conversations": CHUNK,
    "openai-responses": typed(RESPONSES_TYPES),
    "openai-codex-responses": typed(RESPONSES_TYPES),
    "azure-openai-responses": typed(RESPONSES_TYPES),  # Azure streams OpenAI's Responses events
    "anthropic-messages": typed(ANTHROPIC_TYPES),
    "google-generative-ai": GEMINI,
    "google-gemini-cli": GEMINI | obj(response=GEMINI),
    "google-vertex": GEMINI,  # Vertex streams Gemini's chunks
    "anthropic-vertex": typed(ANTHROPIC_TYPES),  # and Anthropic's events on Vertex
}


BEDROCK_TYPES = [
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
    "metadata",
    "throttlingException",
    "malformed",
]
BEDROCK = obj(
    role=TEXT,
    contentBlockIndex=JSON,
    start=obj(toolUse=obj(toolUseId=TEXT, name=TEXT) | JSON),
    delta=obj(
        text=TEXT,
        toolUse=obj(input=TEXT) | JSON,
        reasoningContent=obj(text=TEXT, signature=TEXT, redactedContent=TEXT) | JSON,
    ),
    stopReason=st.sampled_from(["end_turn", "tool_use", "max_tokens", "guardrail_intervened"]) | JSON,
    usage=obj(inputTokens=JSON, outputTokens=JSON, cacheReadInputTokens=JSON) | JSON,
    message=TEXT,
)
SHAPES["bedrock-converse-stream"] = BEDROCK


def events_for(api: str) -> st.SearchStrategy[list[SseEvent]]:
    data = st.one_of(
        SHAPES[api].map(json.dumps),
        JSON.map(json.dumps),
        st.text(max_size=20),
        st.just("[DONE]"),
        st.just("{"),
    )
    if api == "bedrock-converse-stream":  # event stream messages: a type and a message type
        kinds = st.sampled_from(["event", "event", "event", "exception", "error"])
        return st.lists(st.builds(SseEvent, st.sampled_from(BEDROCK_TYPES), data, kinds), max_size=12)
    names = st.sampled_from(["message", "error", "content_block_delta", "ping"])
    return st.lists(st.builds(SseEvent, names, data), max_size=12)


@pytest.mark.parametrize("api", list(MODULES))
@settings(max_examples=100, deadline=None)
@given(data=st.data(), aborted=st.booleans())
def test_any_events_end_the_message_exactly_once(api: str, data: st.DataObject, aborted: bool) -> None:
    events = data.draw(events_for(api))
    parser = wire_api(api).new_parser(model_for(api))
    out = []
    for event in events:
        out += parser.feed(event)
    out += parser.fail("aborted", "cancelled") if aborted else parser.finish()
    terminal = [e for e in out if isinstance(e, DoneEvent | ErrorEvent)]
    assert len(terminal) == 1 and out[-1] is terminal[0]
    assert parser.ended and parser.finish() == [] and parser.feed(SseEvent("message", "{}")) == []
    message = terminal[0].message
    assert message.stop_reason in ("stop", "length", "toolUse", "error", "aborted")
    assert (message.error_message is not None) == (message.stop_reason in ("error", "aborted"))
    for block in message.content:
        if isinstance(block, TextContent):
            assert isinstance(block.text, str)
        elif isinstance(block, ThinkingContent):
            assert isinstance(block.thinking, str)
            assert block.thinking_signature is None or isinstance(block.thinking_signature, str)
        else:
            assert (
                isinstance(block.id, str)
                and isinstance(block.name, str)
                and isinstance(block.arguments, dict)
            )
    json.dumps(message_to_dict(message))


ILL_TYPED = [
    ("openai-responses", {"type": "response.output_text.delta", "delta": {"a": 1}}),
    ("openai-responses", {"type": "response.reasoning_summary_text.delta", "delta": 5}),
    (
        "openai-responses",
        {"type": "response.output_item.added", "item": {"type": "function_call", "name": [1]}},
    ),
    ("anthropic-messages", {"type": "content_block_delta", "delta": {"type": "text_delta", "text": [1]}}),
    (
        "anthropic-messages",
        {"type": "content_block_delta", "delta": {"type": "thinking_delta", "thinking": 2}},
    ),
    ("anthropic-messages", {"type": "content_block_start", "content_block": {"type": "tool_use", "id": 7}}),
    (
        "google-generative-ai",
        {"candidates": [{"content": {"parts": [{"functionCall": {"name": {"x": 1}}}]}}]},
    ),
]


@pytest.mark.parametrize(("api", "event"), ILL_TYPED, ids=[f"{a}-{i}" for i, (a, _) in enumerate(ILL_TYPED)])
def test_ill_typed_fields_end_the_message_as_malformed_without_storing_them(
    api: str, event: dict[str, Any]
) -> None:
    parser = wire_api(api).new_parser(model_for(api))
    out = parser.feed(SseEvent("message", json.dumps(event)))
    assert out and isinstance(out[-1], ErrorEvent)
    message = out[-1].message
    assert message.error_message is not None and message.error_message.startswith("malformed")
    json.dumps(message_to_dict(message))
    assert all(isinstance(getattr(b, "text", ""), str) for b in message.content)
