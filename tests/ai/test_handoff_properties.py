"""Property: whatever transcript comes in, the handoff's output is one every API accepts."""

from __future__ import annotations

import re

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.content import TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_ai.handoff import Handoff, transform_messages
from tau_ai.model import Model

TARGET = Model(id="claude-sonnet-4-5", api="anthropic-messages", provider="anthropic", base_url="")
SOURCES = [("anthropic", "anthropic-messages", "claude-sonnet-4-5"), ("openai", "openai-responses", "gpt-5")]
ANTHROPIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
ids = st.sampled_from(["toolu_1", "toolu_2", "call_a|fc_" + "x" * 70, "call b", "c" * 80])

blocks = st.one_of(
    st.builds(TextContent, st.text(max_size=5)),
    st.builds(ThinkingContent, st.text(max_size=5), st.none() | st.just("sig"), st.booleans()),
    st.builds(ToolCall, ids, st.sampled_from(["read", "bash"])),
)


@st.composite
def assistant(draw: st.DrawFn) -> AssistantMessage:
    provider, api, model = draw(st.sampled_from(SOURCES))
    content = draw(st.lists(blocks, max_size=4))
    if api == "anthropic-messages":  # that API only ever produced valid ids
        content = [
            ToolCall("toolu_x", b.name) if isinstance(b, ToolCall) and "|" in b.id else b for b in content
        ]
        content = [
            ToolCall("toolu_y", b.name) if isinstance(b, ToolCall) and not ANTHROPIC_ID.fullmatch(b.id) else b
            for b in content
        ]
    stop = draw(st.sampled_from(["stop", "toolUse", "error", "aborted", "length"]))
    return AssistantMessage(content, api=api, provider=provider, model=model, stop_reason=stop)


messages = st.lists(
    st.one_of(
        st.builds(UserMessage, st.text(max_size=3)),
        assistant(),
        st.builds(lambda i: ToolResultMessage(i, "read", [TextContent("r")]), ids),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(messages)
def test_output_pairs_every_call_with_results_and_only_valid_ids(transcript: list[LlmMessage]) -> None:
    out = transform_messages(transcript, TARGET)
    open_calls: set[str] = set()
    answered: set[str] = set()
    for message in [*out, UserMessage("end")]:
        if isinstance(message, ToolResultMessage):
            assert message.tool_call_id in open_calls, "a result without its call"
            answered.add(message.tool_call_id)
            continue
        assert open_calls <= answered, "a call left without a result"
        open_calls, answered = set(), set()
        if isinstance(message, AssistantMessage):
            assert message.stop_reason not in ("error", "aborted") and message.content
            for call in message.tool_calls:
                assert ANTHROPIC_ID.fullmatch(call.id), call.id
                open_calls.add(call.id)
    assert transform_messages(out, TARGET) == out


# The shorter ways ``Handoff.add`` takes for the usual messages of a long history (a reply of
# the target's API kept as it is, the result of an open call) against the general fold.
SAME_API = [("openai", "openai-completions", "gpt-4o"), ("local", "openai-completions", "m")]
COMPLETIONS = Model(id="m", api="openai-completions", provider="local", base_url="")
texts = st.sampled_from(["", "ok", "caf\u00e9", "bad \ud800 half", " "])
usual_blocks = st.one_of(
    st.builds(TextContent, texts, st.none() | st.just("sig")),
    st.builds(ThinkingContent, texts, st.none() | st.just("sig"), st.booleans()),
    st.builds(ToolCall, ids, st.sampled_from(["read", "bash"]), st.none(), st.none() | st.just("ts")),
)


@st.composite
def any_reply(draw: st.DrawFn) -> AssistantMessage:
    provider, api, model = draw(st.sampled_from([*SAME_API, *SOURCES]))
    stop = draw(st.sampled_from(["stop", "toolUse", "error", "aborted"]))
    content = draw(st.lists(usual_blocks, max_size=4))
    return AssistantMessage(content, api=api, provider=provider, model=model, stop_reason=stop)


histories = st.lists(
    st.one_of(
        st.builds(UserMessage, texts),
        any_reply(),
        st.builds(lambda i, t: ToolResultMessage(i, "read", [TextContent(t)]), ids, texts),
    ),
    max_size=16,
)


@settings(max_examples=500, deadline=None)
@given(histories, st.sampled_from([COMPLETIONS, TARGET]))
def test_the_usual_messages_fold_as_the_general_way_folds_them(
    transcript: list[LlmMessage], target: Model
) -> None:
    quick, general = Handoff(target), Handoff(target)
    for message in transcript:
        a, b = quick.add(message), general._general(message)
        assert untimed(a) == untimed(b)
        assert [x is message for x in a] == [x is message for x in b]  # passed through alike
        assert quick.memory_size() == general.memory_size()
        assert untimed(quick.closing()) == untimed(general.closing())
    assert quick.memory(quick.memory_size()) == general.memory(general.memory_size())


def untimed(messages: list[LlmMessage]) -> list[LlmMessage]:
    """The messages with no time: the error results made for open calls are stamped when made."""
    return [msgspec.structs.replace(m, timestamp=0) for m in messages]
