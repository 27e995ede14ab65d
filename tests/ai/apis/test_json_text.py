"""``json_text``: the tool-call arguments some APIs send as a JSON string, byte for byte what
``json.dumps`` writes with its defaults (the request goldens were recorded with it)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tau_ai.apis._shared import json_text

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.text()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(VALUES)
def test_it_writes_what_json_dumps_writes(value: object) -> None:
    assert json_text(value) == json.dumps(value)


# The usual arguments (a flat object of strings) go a shorter way: near-plain ASCII text, with
# the characters json.dumps escapes there (quote, backslash, controls, DEL) mixed in.
NEAR_PLAIN = st.text(
    alphabet=st.sampled_from([*"ab /:.~ -", '"', "\\", "\x7f", "\x1f", "\n", "é"]), max_size=8
)


@given(st.dictionaries(NEAR_PLAIN, NEAR_PLAIN | st.integers(), max_size=4))
def test_a_flat_object_of_strings_is_written_as_json_dumps_writes_it(value: dict[str, object]) -> None:
    assert json_text(value) == json.dumps(value)


@pytest.mark.parametrize(
    "value",
    [{"path": "a.txt"}, {}, {"t": "\udc00é✓"}, {1: 2, None: 3, False: 4, 1.5: 5}, {"n": 2**70}, "text", 7],
)
def test_examples(value: object) -> None:
    assert json_text(value) == json.dumps(value)


def test_what_json_dumps_refuses_it_refuses() -> None:
    with pytest.raises(TypeError):
        json_text({"x": object()})
    with pytest.raises(TypeError):
        json_text({(1, 2): "tuple key"})
