"""validate_arguments: schema checks with simple coercion and errors a model can act on."""

from __future__ import annotations

import pytest

from tau_agent.validation import ToolArgumentError, validate_arguments

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string"},
        "offset": {"type": "integer", "minimum": 1},
        "verbose": {"type": "boolean"},
        "mode": {"type": "string", "enum": ["a", "b"]},
        "edits": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
                "required": ["oldText", "newText"],
            },
        },
    },
    "required": ["path"],
}


def test_valid_arguments_pass_unchanged() -> None:
    args = {"path": "a", "offset": 3, "edits": [{"oldText": "x", "newText": "y"}]}
    assert validate_arguments("t", SCHEMA, args) == args


def test_plain_readings_are_coerced() -> None:
    out = validate_arguments("t", SCHEMA, {"path": 5, "offset": "12", "verbose": "true"})
    assert out == {"path": "5", "offset": 12, "verbose": True}


def test_optional_null_means_not_given() -> None:
    assert validate_arguments("t", SCHEMA, {"path": "a", "offset": None}) == {"path": "a"}


def test_errors_name_each_path_and_what_was_received() -> None:
    with pytest.raises(ToolArgumentError) as info:
        validate_arguments("edit", SCHEMA, {"offset": "x", "mode": "c", "edits": [{"oldText": 1.5}]})
    message = str(info.value)
    assert message.startswith('Validation failed for tool "edit":')
    assert "  - path: required property is missing" in message
    assert '  - offset: expected integer, received "x" (str)' in message
    assert '  - mode: must be one of "a", "b", received "c" (str)' in message
    assert "  - edits[0].newText: required property is missing" in message
    assert "Received arguments:" in message


def test_bounds_are_checked() -> None:
    with pytest.raises(ToolArgumentError, match="offset: must be >= 1, received 0"):
        validate_arguments("t", SCHEMA, {"path": "a", "offset": 0})


def test_json_text_for_an_array_is_accepted() -> None:
    out = validate_arguments("t", SCHEMA, {"path": "a", "edits": '[{"oldText": "a", "newText": "b"}]'})
    assert out["edits"] == [{"oldText": "a", "newText": "b"}]


def test_arguments_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(ToolArgumentError, match="expected object"):
        validate_arguments("t", SCHEMA, ["path"])


def test_any_of_picks_the_first_shape_that_fits() -> None:
    schema = {"type": "object", "properties": {"x": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}}
    assert validate_arguments("t", schema, {"x": "7"}) == {"x": 7}
    with pytest.raises(ToolArgumentError, match="matches none of the allowed shapes"):
        validate_arguments("t", schema, {"x": [1]})
