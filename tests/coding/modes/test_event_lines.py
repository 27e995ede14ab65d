"""event_line: every session event's line is orjson of its Pi-shaped dict, the delta fast path included."""

from __future__ import annotations

import json

import orjson
from hypothesis import given
from hypothesis import strategies as st

from tau_agent.content import TextContent
from tau_agent.events import (
    AgentEvent,
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
)
from tau_agent.messages import AssistantMessage
from tau_agent.stream_events import (
    TextDeltaEvent,
    TextEndEvent,
    ThinkingDeltaEvent,
    ToolCallDeltaEvent,
)
from tau_coding.modes.event_lines import batch_lines, event_line, update_lines, value_line
from tau_coding.session.events import AutoRetryStartEvent, SessionEvent, session_event_to_dict

DELTAS = (TextDeltaEvent, ThinkingDeltaEvent, ToolCallDeltaEvent)


def _partial() -> AssistantMessage:
    return AssistantMessage(content=[TextContent("so far")], api="a", provider="p", model="m")


@given(kind=st.sampled_from(DELTAS), index=st.integers(0, 10_000), delta=st.text())
def test_a_streamed_delta_line_is_the_dict_path_byte_for_byte(
    kind: type[TextDeltaEvent | ThinkingDeltaEvent | ToolCallDeltaEvent], index: int, delta: str
) -> None:
    partial = _partial()
    event = MessageUpdateEvent(partial, kind(index, delta, partial))
    line = event_line(event)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    if any("\ud800" <= c <= "\udfff" for c in delta):  # escaped, as orjson cannot write it
        assert json.loads(line) == session_event_to_dict(event)
    else:
        assert line == orjson.dumps(session_event_to_dict(event), option=orjson.OPT_APPEND_NEWLINE)


def test_a_lone_surrogate_in_a_delta_is_escaped_not_dropped() -> None:
    partial = _partial()
    line = event_line(MessageUpdateEvent(partial, TextDeltaEvent(2, "a\ud83db", partial)))
    assert b'"delta":"a\\ud83db"' in line
    assert json.loads(line)["assistantMessageEvent"]["delta"] == "a\ud83db"


def test_other_events_take_the_dict_path() -> None:
    partial = _partial()
    events: list[SessionEvent] = [
        AgentStartEvent(),
        MessageUpdateEvent(partial, TextEndEvent(0, TextContent("so far"), partial)),
        MessageEndEvent(partial),
        AutoRetryStartEvent(1, 3, 2000, "overloaded"),
    ]
    for event in events:
        assert event_line(event) == orjson.dumps(
            session_event_to_dict(event), option=orjson.OPT_APPEND_NEWLINE
        )


def test_a_value_orjson_refuses_is_escaped() -> None:
    assert value_line({"text": "x\udc00", "n": 2**70}) == b'{"text":"x\\udc00","n":1180591620717411303424}\n'


@given(
    deltas=st.lists(st.tuples(st.sampled_from(DELTAS), st.integers(0, 50), st.text(max_size=8)), max_size=20),
    other_at=st.integers(0, 20),
)
def test_a_batch_is_its_lines_joined_the_updates_alone_or_every_event(
    deltas: list[tuple[type[TextDeltaEvent | ThinkingDeltaEvent | ToolCallDeltaEvent], int, str]],
    other_at: int,
) -> None:
    partial = _partial()
    events: list[AgentEvent] = [MessageUpdateEvent(partial, kind(i, d, partial)) for kind, i, d in deltas]
    events.insert(
        min(other_at, len(events)), MessageUpdateEvent(partial, TextEndEvent(0, TextContent("x"), partial))
    )
    events.insert(0, MessageStartEvent(partial))  # not an update: the caller writes it as it hears it
    expected = b"".join(event_line(event) for event in events if type(event) is MessageUpdateEvent)
    assert update_lines(events) == expected
    assert update_lines(events).count(b"\n") == len(deltas) + 1
    assert batch_lines(events) == b"".join(event_line(event) for event in events)  # RPC keeps them all
