"""encode_body: orjson's speed, with what the standard library would write where orjson refuses."""

from __future__ import annotations

import json

import orjson

from tau_ai.body_encoding import encode_body
from tau_ai.request_cache import plain_body


def stdlib(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def test_plain_bodies_are_the_standard_librarys_compact_utf8_json() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": 'é ✓ "q"\n'}], "n": 3, "t": 0.5, "x": None}
    assert encode_body(body) == stdlib(body)


def test_a_lone_surrogate_is_escaped_and_the_rest_left_as_is() -> None:
    body = {"a": "é", "b": ["x\ud800y"], "c\udc00": {"d": 1}}
    encoded = encode_body(body)
    assert encoded == b'{"a":"\xc3\xa9","b":["x\\ud800y"],"c\\udc00":{"d":1}}'
    assert json.loads(encoded) == body


def test_integers_past_64_bits_and_fragments_are_written_verbatim() -> None:
    body = {
        "big": 2**70,
        "negative": -(2**70),
        "kept": orjson.Fragment(b'{"already":"encoded"}'),
        "s": "\ud800",
    }
    encoded = encode_body(body)
    assert json.loads(encoded) == {
        "big": 2**70,
        "negative": -(2**70),
        "kept": {"already": "encoded"},
        "s": "\ud800",
    }


def test_plain_body_is_a_deep_plain_copy() -> None:
    inner = {"role": "user", "content": "hi"}
    body = {"messages": [orjson.Fragment(b'{"role":"system","content":"s"}'), inner], "lone": "\udc00"}
    plain = plain_body(body)
    assert plain == {"messages": [{"role": "system", "content": "s"}, inner], "lone": "\udc00"}
    plain["messages"][1]["content"] = "changed"
    assert inner["content"] == "hi"
