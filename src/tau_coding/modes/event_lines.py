"""event_line: a session event as one JSON line (UTF-8 bytes ending in LF), for JSON and RPC mode.

What a caller may rely on: the bytes are exactly ``orjson.dumps(session_event_to_dict(event))``
plus LF, Pi's shape, for every event. A streamed delta (``message_update`` carrying a text,
thinking or tool-call delta), which is nearly every line of a reply, is written from a
prebuilt template around its one encoded string instead of through two dicts: it is the
per-token cost of these modes. ``update_lines`` does the same for every ``message_update`` of a
batch (one network read's events) at once, into one bytes object for one write, and
``batch_lines`` for every event of a batch. A string orjson refuses (a lone UTF-16 surrogate, which models
do stream) is written with a JSON ``\\uXXXX`` escape, as request bodies are.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from tau_agent.events import AgentEvent, MessageUpdateEvent
from tau_agent.stream_events import TextDeltaEvent, ThinkingDeltaEvent, ToolCallDeltaEvent
from tau_ai.body_encoding import escaped
from tau_coding.session.events import SessionEvent, session_event_to_dict

_NEWLINE = orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS
_DELTA_LINES = {
    kind: b'{"type":"message_update","assistantMessageEvent":{"type":"'
    + kind.encode()
    + b'","contentIndex":%d,"delta":%b}}\n'
    for kind in ("text_delta", "thinking_delta", "toolcall_delta")
}
_DELTAS = (TextDeltaEvent, ThinkingDeltaEvent, ToolCallDeltaEvent)
_DELTA_TYPES = frozenset(_DELTAS)


def event_line(event: SessionEvent) -> bytes:
    """``event`` as one compact JSON line (see the module docstring)."""
    if type(event) is MessageUpdateEvent:
        inner = event.assistant_message_event
        if isinstance(inner, _DELTAS):
            try:
                return _DELTA_LINES[inner.type] % (inner.content_index, orjson.dumps(inner.delta))
            except orjson.JSONEncodeError:
                pass  # the general path escapes what orjson refuses
    return value_line(session_event_to_dict(event))


def batch_lines(events: Sequence[AgentEvent]) -> bytes:
    """Every event of ``events``, in order, as their ``event_line``s joined (RPC's batches)."""
    dumps = orjson.dumps
    try:  # as update_lines, every event kept
        return b"".join(
            [
                _DELTA_LINES[inner.type] % (inner.content_index, dumps(inner.delta))  # type: ignore[union-attr]
                if type(event) is MessageUpdateEvent
                and type(inner := event.assistant_message_event) in _DELTA_TYPES
                else value_line(session_event_to_dict(event))
                for event in events
            ]
        )
    except orjson.JSONEncodeError:  # a lone surrogate somewhere: event_line escapes it
        return b"".join([event_line(event) for event in events])


def update_lines(events: Sequence[AgentEvent]) -> bytes:
    """The ``message_update`` events among ``events``, in order, as their ``event_line``s joined
    (the other events are left out: a caller writes those as it hears of them)."""
    return batch_lines([event for event in events if type(event) is MessageUpdateEvent])


def value_line(value: object) -> bytes:
    """Any JSON value as one compact line; a lone surrogate or an integer past 64 bits is escaped."""
    try:
        return orjson.dumps(value, option=_NEWLINE)
    except orjson.JSONEncodeError:
        return orjson.dumps(escaped(value), option=_NEWLINE)


__all__ = ["batch_lines", "event_line", "update_lines", "value_line"]
