"""encode_body: orjson's speed, with what the standard library would write where orjson refuses."""

from __future__ import annotations

import json

import orjson

from tau_ai.body_encoding import BodyParts, Spliced, encode_body, encode_body_parts, whole
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


def test_spliced_text_is_embedded_or_sent_as_a_part_of_its_own() -> None:
    run = b'{"role":"user","content":"a"},{"role":"assistant","content":"\\u0000b"}'
    body = {
        "model": "m",
        "messages": [{"role": "system"}, Spliced(run), {"content": "x\x00y"}],
        "s": "\ud800",
    }
    encoded = encode_body(body)
    assert json.loads(encoded)["messages"][1:3] == json.loads(b"[" + run + b"]")
    parts = encode_body_parts(body)
    assert isinstance(parts, BodyParts) and len(parts) == len(encoded)
    assert parts.joined() == encoded and whole(parts) == encoded
    assert any(part is run for part in parts.parts), "the run is sent as it is, not copied"
    plain = {"model": "m", "messages": [orjson.Fragment(b'{"a":1}')]}
    assert encode_body_parts(plain) == encode_body(plain) == b'{"model":"m","messages":[{"a":1}]}'
