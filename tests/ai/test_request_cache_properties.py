"""Property: a request built from the cached conversion is byte for byte the full conversion's.

For every wire API, a random transcript is sent as a conversation grows (random steps),
with now and then a history that is not the previous one plus more (a compaction, an edit, a
new system prompt). After each step the body built by one long-lived RequestCache is encoded
and compared with the body of ``transform_messages`` + ``build_request`` over the same context.
"""

from __future__ import annotations

import io
import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.tools import ToolSpec
from tau_ai.apis import MODULES, wire_api
from tau_ai.body_encoding import encode_body, encode_body_parts, whole
from tau_ai.handoff import transform_messages
from tau_ai.model import Model
from tau_ai.request_cache import FOLD, RequestCache, plain_body
from tau_ai.request_checkpoint import Checkpoint
from tau_ai.request_checkpoint import read as read_checkpoint
from tau_ai.request_checkpoint import write as write_checkpoint
from tau_ai.stored_text import SpillFile
from tests.golden.requests import MODELS, SIGNATURES

PNG = "iVBORw0KGgo="
TOOLS = [ToolSpec("read", "Read a file.", {"type": "object", "properties": {"path": {"type": "string"}}})]
# Hosts of the Chat Completions API whose quirks change the message sequence.
COMPLETIONS_HOSTS = [
    MODELS["openai-completions"],
    replace(MODELS["openai-completions"], base_url="https://api.mistral.ai/v1", provider="mistral"),
    replace(MODELS["openai-completions"], reasoning=False, input=("text",)),
]
TARGETS = [(api, model) for api, model in MODELS.items() if api != "openai-completions"] + [
    ("openai-completions", model) for model in COMPLETIONS_HOSTS
]

texts = st.sampled_from(["", "hi", "é ✓", "x\ud800y", "a" * 40])
ids = st.sampled_from(["call_1", "call_2", "toolu_01A", "call_abc123|fc_1", "aB3dE5gH7", "c" * 70, "bad id"])
images = st.builds(ImageContent, st.just(PNG), st.just("image/png"))


@st.composite
def assistant(draw: st.DrawFn, api: str, model: Model) -> AssistantMessage:
    own = draw(st.booleans())
    thinking_sig, text_sig, _, call_sig = SIGNATURES[api]
    blocks = st.one_of(
        st.builds(TextContent, texts, st.sampled_from([None, text_sig])),
        st.builds(ThinkingContent, texts, st.sampled_from([None, thinking_sig]), st.booleans()),
        st.builds(
            ToolCall,
            st.one_of(ids, st.uuids().map(lambda u: f"call_{u.hex[:8]}")),
            st.sampled_from(["read", "bash"]),
            st.sampled_from([{}, {"path": "a.txt"}, {"n": 2**70}, {"t": "\udc00"}]),
            st.sampled_from([None, call_sig]),
        ),
    )
    source = (api, model.provider, model.id) if own else ("other-api", "other", "other-model")
    return AssistantMessage(
        draw(st.lists(blocks, max_size=4)),
        api=source[0],
        provider=source[1],
        model=source[2],
        stop_reason=draw(st.sampled_from(["stop", "toolUse", "toolUse", "error", "aborted", "length"])),
        timestamp=0,
    )


def results_for(reply: AssistantMessage, content: list[TextContent | ImageContent]) -> list[LlmMessage]:
    return [ToolResultMessage(call.id, call.name, content, timestamp=0) for call in reply.tool_calls]


@st.composite
def transcripts(draw: st.DrawFn, api: str, model: Model) -> list[LlmMessage]:
    """Users, replies and tool results, mostly in the order an agent makes them."""
    user = st.one_of(
        st.builds(UserMessage, texts, st.just(0)),
        st.builds(
            UserMessage, st.lists(st.one_of(st.builds(TextContent, texts), images), max_size=2), st.just(0)
        ),
    )
    content = st.lists(st.one_of(st.builds(TextContent, texts), images), max_size=2)
    stray = st.builds(ToolResultMessage, ids, st.just("read"), content, st.none(), st.booleans(), st.just(0))
    out: list[LlmMessage] = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["user", "reply", "reply", "stray"]))
        if kind == "user":
            out.append(draw(user))
        elif kind == "stray":
            out.append(draw(stray))
        else:
            reply = draw(assistant(api, model))
            results = results_for(reply, draw(content))
            out += [reply, *draw(st.permutations(results))[: draw(st.integers(0, len(results)))]]
    return out


RESUMED: list[str] = []


def through_bytes(checkpoint: Checkpoint) -> Checkpoint | None:
    out = io.BytesIO()
    write_checkpoint(checkpoint, out)
    return read_checkpoint(io.BytesIO(out.getvalue()))


def full_body(model: Model, context: Context, options: StreamOptions) -> bytes:
    prepared = Context(context.system_prompt, transform_messages(context.messages, model), context.tools)
    return encode_body(wire_api(model.api).build_request(model, prepared, options, "key").body)


@st.composite
def conversations(draw: st.DrawFn) -> tuple[Model, list[tuple[str, list[LlmMessage]]]]:
    """A model and the (system prompt, messages) of each request, mostly growing by appending."""
    api, model = draw(st.sampled_from(TARGETS))
    transcript = draw(transcripts(api, model))
    steps: list[tuple[str, list[LlmMessage]]] = []
    sent, system = 0, "You are Tau."
    while sent < len(transcript) or not steps:
        sent = min(len(transcript), sent + draw(st.integers(0, 4)))
        history = transcript[:sent]
        change = draw(st.sampled_from(["grow"] * 6 + ["compact", "edit", "system"]))
        if change == "compact" and history:
            history = [UserMessage("summary", 0), *history[draw(st.integers(0, len(history) - 1)) :]]
        elif change == "edit" and history:
            at = draw(st.integers(0, len(history) - 1))
            history = [*history[:at], UserMessage("edited", 0), *history[at + 1 :]]
        elif change == "system":
            system = draw(st.sampled_from(["", "You are Tau.", "Other \ud800 prompt"]))
        steps.append((system, history))
    return model, steps


# A long history's items are kept in runs (``FOLD`` of them); short runs fold these small ones.
# A negative fold: runs of that many kept in a spill file (``RequestCache.keep_runs``), not in memory.
folds = st.sampled_from([FOLD, 2, 3, -2])
_SPILLS = Path(tempfile.gettempdir())


def new_cache(model: Model, fold: int) -> RequestCache:
    cache = RequestCache(model, wire_api(model.api), abs(fold))
    if fold < 0:
        cache.keep_runs = SpillFile(_SPILLS).keep
    return cache


# Conversations are large by nature: the point is long histories converted step by step.
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.data_too_large])
@given(conversations(), st.sampled_from([StreamOptions(), StreamOptions(thinking_level="high")]), folds)
def test_cached_requests_equal_full_conversion_for_every_api(
    conversation: tuple[Model, list[tuple[str, list[LlmMessage]]]], options: StreamOptions, fold: int
) -> None:
    model, steps = conversation
    cache = new_cache(model, fold)
    for system, messages in steps:
        context = Context(system, list(messages), TOOLS)
        body = cache.build(context, options, "key").body
        assert encode_body(body) == full_body(model, context, options)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.data_too_large])
@given(conversations(), st.sampled_from([StreamOptions(), StreamOptions(thinking_level="high")]), folds)
def test_a_checkpoint_taken_up_by_another_cache_builds_the_full_conversion(
    conversation: tuple[Model, list[tuple[str, list[LlmMessage]]]], options: StreamOptions, fold: int
) -> None:
    """What the next process does on resume: a new cache takes up a checkpoint (through its
    bytes) and serves every later request of the conversation."""
    model, steps = conversation
    cache = new_cache(model, fold)
    for at, (system, messages) in enumerate(steps):
        cache.build(Context(system, list(messages), TOOLS), options, "key")
        taken = cache.checkpoint()
        if taken is None:
            continue
        checkpoint, covered = taken
        assert covered == list(messages[: checkpoint.messages])
        decoded = through_bytes(checkpoint)
        assert decoded is not None
        assert [bytes(p) for p in decoded.pieces] == [bytes(p) for p in checkpoint.pieces]
        for start in range(at + 1, len(steps)):
            resumed = new_cache(model, fold)
            later = steps[start][1]
            if later[: checkpoint.messages] != covered or not resumed.resume(decoded, later):
                continue
            RESUMED.append(model.api)
            for final_system, final in steps[start:]:
                context = Context(final_system, list(final), TOOLS)
                body = resumed.build(context, options, "key").body
                assert encode_body(body) == full_body(model, context, options)
                assert whole(encode_body_parts(body)) == full_body(model, context, options)
                _chained(model, resumed, context, options, fold)
            break


def _chained(
    model: Model, resumed: RequestCache, context: Context, options: StreamOptions, fold: int
) -> None:
    """The next resume after a resumed one: its checkpoint keeps the runs it took up, as
    they were, and a third cache takes that up to the same request."""
    taken = resumed.checkpoint()
    if taken is None:
        return
    decoded = through_bytes(taken[0])
    third = new_cache(model, fold)
    assert decoded is not None and third.resume(decoded, context.messages)
    body = third.build(context, options, "key").body
    assert whole(encode_body_parts(body)) == full_body(model, context, options)


def test_the_property_covers_every_api() -> None:
    assert {api for api, _ in TARGETS} == set(MODULES)
    assert all(wire_api(api).incremental is not None for api in MODULES)


def test_a_grown_conversation_converts_only_the_new_messages() -> None:
    model = MODELS["anthropic-messages"]
    cache = RequestCache(model, wire_api(model.api))
    first = [UserMessage("a", 0), AssistantMessage([ToolCall("toolu_1", "read")], api=model.api, timestamp=0)]
    cache.build(Context("s", first, TOOLS), StreamOptions(), None)
    converter = cache._converter
    result = ToolResultMessage("toolu_1", "read", [TextContent("r")], timestamp=0)
    body = cache.build(Context("s", [*first, result], TOOLS), StreamOptions(), None).body
    assert cache._converter is converter, "the grown history reused the conversion"
    assert plain_body(body)["messages"][-1]["content"][0]["tool_use_id"] == "toolu_1"
    cache.build(Context("s", [UserMessage("compacted", 0)], TOOLS), StreamOptions(), None)
    assert cache._converter is not converter, "a different history started over"
