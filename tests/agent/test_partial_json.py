"""parse_partial_json: the arguments so far, never an exception."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.partial_json import parse_partial_json


def test_streamed_string_value_shows_as_it_arrives() -> None:
    assert parse_partial_json('{"path": "a.py", "content": "line 1\\nli') == {
        "path": "a.py",
        "content": "line 1\nli",
    }


def test_incomplete_key_number_and_literal_are_left_out() -> None:
    assert parse_partial_json('{"a": 1, "b') == {"a": 1}
    assert parse_partial_json('{"a": 1, "b": 12') == {"a": 1}
    assert parse_partial_json('{"a": 1, "b": tr') == {"a": 1}
    assert parse_partial_json('{"a": [1, 2') == {"a": [1]}


def test_half_an_escape_is_dropped_not_garbled() -> None:
    assert parse_partial_json('{"a": "x\\') == {"a": "x"}
    assert parse_partial_json('{"a": "x\\u00') == {"a": "x"}
    assert parse_partial_json('{"a": "x\\\\') == {"a": "x\\"}


def test_non_objects_and_garbage_give_an_empty_dict() -> None:
    for text in ["", "   ", "[1, 2]", "42", "nonsense", "}{", '"str"']:
        assert parse_partial_json(text) == {}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=6), json_values, max_size=5))
def test_every_prefix_of_an_object_parses_and_the_whole_is_exact(value: dict[str, Any]) -> None:
    text = json.dumps(value)
    for cut in range(len(text)):
        assert isinstance(parse_partial_json(text[:cut]), dict)
    assert parse_partial_json(text) == value


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    assert isinstance(parse_partial_json(text), dict)
