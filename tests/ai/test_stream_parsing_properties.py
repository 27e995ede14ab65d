"""Property tests: the SSE decoder and the partial-JSON parser never raise, and splitting
the input anywhere changes nothing."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.partial_json import parse_partial_json
from tau_ai.sse import SseDecoder, SseEvent

# Pieces that make SSE-shaped bytes likely: field names, separators, every line ending,
# multi-byte UTF-8 and invalid bytes.
_PIECES = [
    b"data:",
    b"data: ",
    b"event: ",
    b"id: ",
    b"retry: ",
    b": comment",
    b"\n",
    b"\r",
    b"\r\n",
    b"\n\n",
    b"x",
    b'{"a":1}',
    b" ",
    b":",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xff",
    b"\xc3",
    b"\x00",
    b"1",
]
sse_bytes = st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join),
)


def decode(chunks: list[bytes]) -> list[SseEvent]:
    decoder = SseDecoder()
    events: list[SseEvent] = []
    for chunk in chunks:
        events += decoder.feed(chunk)
    return events + decoder.flush()


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    edges = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in itertools.pairwise(edges)]


@settings(max_examples=400, deadline=None)
@given(sse_bytes, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_sse_decoder_gives_the_same_events_however_the_bytes_are_split(data: bytes, cuts: list[int]) -> None:
    assert decode(split(data, cuts)) == decode([data])


@settings(max_examples=200, deadline=None)
@given(sse_bytes)
def test_sse_decoder_byte_by_byte_equals_whole(data: bytes) -> None:
    assert decode([data[i : i + 1] for i in range(len(data))]) == decode([data])


def reference(data: bytes) -> list[SseEvent]:
    """A deliberately plain reading of the SSE framing rules, to check the decoder against."""
    events: list[SseEvent] = []
    name, lines, last_id, retry = "", [], None, None
    for line in [*re.split(r"\r\n|\r|\n", data.decode("utf-8", errors="replace")), ""]:
        if not line:
            if lines:
                events.append(SseEvent(name or "message", "\n".join(lines), last_id, retry))
            name, lines, retry = "", [], None
            continue
        if line.startswith(":"):
            continue
        key, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if key == "data":
            lines.append(value)
        elif key == "event":
            name = value
        elif key == "id" and "\0" not in value:
            last_id = value
        elif key == "retry" and value.isdigit():
            retry = int(value)
    return events


@settings(max_examples=400, deadline=None)
@given(sse_bytes, st.lists(st.integers(min_value=0, max_value=10_000), max_size=6))
def test_sse_decoder_agrees_with_a_plain_reading_of_the_rules(data: bytes, cuts: list[int]) -> None:
    assert decode(split(data, cuts)) == reference(data)


def test_sse_decoder_frames_crlf_cr_and_lf_alike() -> None:
    for newline in (b"\n", b"\r", b"\r\n"):
        body = b"event: a" + newline + b"data: 1" + newline + b"data: 2" + newline + newline
        assert decode([body]) == [SseEvent("a", "1\n2")]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_partial_json_never_raises_on_any_text(text: str) -> None:
    assert isinstance(parse_partial_json(text), dict)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["{", "}", "[", "]", '"', "\\", ":", ",", "a", "1", "true", "nul", " ", "\\u12", "é"]
        ),
        max_size=40,
    )
)
def test_partial_json_never_raises_on_json_shaped_noise(pieces: list[str]) -> None:
    assert isinstance(parse_partial_json("".join(pieces)), dict)


@settings(max_examples=200, deadline=None)
@given(json_objects, st.booleans())
def test_every_prefix_of_an_object_parses_and_the_whole_gives_the_object(
    obj: dict[str, Any], pretty: bool
) -> None:
    text = json.dumps(obj, indent=1 if pretty else None, ensure_ascii=False)
    for end in range(len(text)):
        partial = parse_partial_json(text[:end])
        assert isinstance(partial, dict)
        assert set(partial) <= set(obj)
    assert parse_partial_json(text) == obj
