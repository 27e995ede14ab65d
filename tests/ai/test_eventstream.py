"""The AWS event stream decoder: whole messages at any split, and one clear line for bad bytes."""

from __future__ import annotations

import itertools
import json
import struct
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_ai.eventstream import (
    EventStreamDecoder,
    encode_event,
    encode_exception,
    encode_message,
)
from tau_ai.sse import SseEvent


def _event(kind: str, value: object) -> bytes:
    return encode_event(kind, json.dumps(value).encode())


BODY = (
    _event("messageStart", {"role": "assistant", "p": "abcdefgh"})
    + _event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "héllo ✓"}})
    + _event("contentBlockStop", {"contentBlockIndex": 0})
    + encode_exception("throttlingException", b'{"message":"Too many requests"}')
)
EXPECTED = [
    SseEvent("messageStart", '{"role": "assistant", "p": "abcdefgh"}', "event"),
    SseEvent(
        "contentBlockDelta", '{"contentBlockIndex": 0, "delta": {"text": "h\\u00e9llo \\u2713"}}', "event"
    ),
    SseEvent("contentBlockStop", '{"contentBlockIndex": 0}', "event"),
    SseEvent("throttlingException", '{"message":"Too many requests"}', "exception"),
]


def _decode(pieces: list[bytes]) -> list[SseEvent]:
    decoder = EventStreamDecoder()
    out: list[SseEvent] = []
    for piece in pieces:
        out += decoder.feed(piece)
    return out + decoder.flush()


def test_a_body_fed_whole_gives_every_message_with_its_type() -> None:
    assert _decode([BODY]) == EXPECTED


def test_every_split_into_two_pieces_gives_the_same_messages() -> None:
    for at in range(len(BODY) + 1):
        assert _decode([BODY[:at], BODY[at:]]) == EXPECTED, at


def test_a_body_fed_one_byte_at_a_time_gives_the_same_messages() -> None:
    assert _decode([BODY[i : i + 1] for i in range(len(BODY))]) == EXPECTED


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, len(BODY)), max_size=12))
def test_any_splits_give_the_same_messages(cuts: list[int]) -> None:
    edges = [0, *sorted(cuts), len(BODY)]
    assert _decode([BODY[a:b] for a, b in itertools.pairwise(edges)]) == EXPECTED


def test_headers_of_other_value_types_are_skipped() -> None:
    raw = _event("metadata", {"usage": {}})
    # Rebuild the message with an int32 and a bool header before the string ones.
    total, headers_length = struct.unpack(">II", raw[:8])
    extra = b"\x05count\x04" + (7).to_bytes(4, "big") + b"\x04flag\x00"
    headers = extra + raw[12 : 12 + headers_length]
    payload = raw[12 + headers_length : total - 4]
    prelude = struct.pack(">II", 12 + len(headers) + len(payload) + 4, len(headers))
    body = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + payload
    body += struct.pack(">I", zlib.crc32(body))
    assert _decode([body]) == [SseEvent("metadata", '{"usage": {}}', "event")]


def test_an_error_message_carries_its_code_and_message() -> None:
    body = encode_message(
        {":message-type": "error", ":error-code": "InternalFailure", ":error-message": "boom"}, b""
    )
    assert _decode([body]) == [SseEvent("InternalFailure", "boom", "error")]


def test_a_message_crc_mismatch_ends_the_stream_with_one_line() -> None:
    good = _event("contentBlockStop", {"contentBlockIndex": 0})
    bad = bytearray(_event("contentBlockDelta", {"delta": {"text": "x"}}))
    bad[-10] ^= 0xFF  # a payload byte: the message CRC no longer matches
    decoder = EventStreamDecoder()
    events = decoder.feed(good + bytes(bad))
    assert events[0] == SseEvent("contentBlockStop", '{"contentBlockIndex": 0}', "event")
    assert len(events) == 2 and events[1].id == "error" and events[1].event == "malformed"
    assert "message CRC mismatch" in events[1].data and "\n" not in events[1].data
    assert decoder.feed(good) == [] and decoder.flush() == []  # nothing after the error


def test_a_prelude_crc_mismatch_is_caught_before_the_length_is_trusted() -> None:
    bad = bytearray(_event("messageStart", {}))
    bad[3] ^= 0x40  # the total length: the prelude CRC no longer matches
    [event] = _decode([bytes(bad)])
    assert event.id == "error" and "prelude CRC mismatch" in event.data


def test_a_body_cut_inside_a_message_is_reported_at_the_end() -> None:
    body = _event("messageStart", {}) + _event("metadata", {})[:20]
    events = _decode([body])
    assert [e.event for e in events] == ["messageStart", "malformed"]
    assert "ended inside a message" in events[1].data


def test_text_that_is_not_an_event_stream_is_malformed_not_a_hang() -> None:
    [event] = _decode([b"<html>Bad gateway</html>"])
    assert event.id == "error" and "CRC mismatch" in event.data
