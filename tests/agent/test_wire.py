"""The camelCase codec: golden output, round trips, and clear errors for bad input."""

from __future__ import annotations

import json

import pytest

from tau_agent.wire import WireError, message_from_dict, message_to_dict
from tests.golden import wire_cases


def test_messages_encode_exactly_as_the_golden_file() -> None:
    assert wire_cases.messages_json() == (wire_cases.HERE / "messages.json").read_text()


def test_every_message_kind_round_trips() -> None:
    for message in wire_cases.all_message_kinds():
        assert message_from_dict(json.loads(json.dumps(message_to_dict(message)))) == message


def test_tool_run_events_match_the_golden_json_lines() -> None:
    expected = (wire_cases.HERE / "tool_run_events.jsonl").read_text().splitlines()
    assert wire_cases.tool_run_lines() == expected


def test_message_update_lines_carry_the_delta_not_the_partial() -> None:
    for line in wire_cases.tool_run_lines():
        event = json.loads(line)
        if event["type"] == "message_update":
            assert "message" not in event and "partial" not in json.dumps(event)


def test_unknown_fields_are_ignored() -> None:
    data = {"role": "user", "content": "hi", "timestamp": 1, "futureField": {"x": 1}}
    assert message_from_dict(data).role == "user"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("not a dict", "message must be an object, got str"),
        ({"role": "wizard"}, "unknown message role 'wizard'"),
        ({"role": "assistant", "content": [{"type": "video"}]}, "unknown content block type 'video'"),
        ({"role": "assistant", "content": [], "stopReason": "maybe"}, "unknown stopReason 'maybe'"),
        (
            {"role": "user", "content": [{"type": "toolCall", "id": "1", "name": "x"}]},
            "user content may not hold a toolCall block",
        ),
        (
            {"role": "toolResult", "toolCallId": 5, "toolName": "x", "content": []},
            "field 'toolCallId' must be a string",
        ),
    ],
)
def test_bad_shapes_raise_one_line_wire_errors(data: object, message: str) -> None:
    with pytest.raises(WireError) as info:
        message_from_dict(data)
    assert str(info.value) == message and "\n" not in str(info.value)


def test_pi_v2_hook_message_reads_as_custom() -> None:
    data = {"role": "hookMessage", "customType": "x", "content": "note", "display": False, "timestamp": 3}
    message = message_from_dict(data)
    assert message.role == "custom"
