"""Commands against an in-process server: wrong field types, busy rules, and a fuzzed reader."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.testing.fake_provider import reply, text
from tau_coding.modes.rpc import HANDLERS
from tests.coding.modes.rpc.harness import InProcess


async def test_wrong_field_types_are_errors_naming_the_field(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "prompt", "message": 5}, "field 'message' must be a string"),
        ({"type": "prompt"}, "field 'message' must be a string"),
        ({"type": "prompt", "message": "x", "images": "no"}, "field 'images' must be a list"),
        ({"type": "prompt", "message": "x", "streamingBehavior": "later"}, "'steer' or 'followUp'"),
        ({"type": "set_auto_compaction", "enabled": "yes"}, "field 'enabled' must be true or false"),
        ({"type": "set_session_name", "name": "  "}, "field 'name' must be a non-empty string"),
        ({"type": "set_model", "provider": "fake"}, "field 'modelId' must be a string"),
        ({"type": "set_thinking_level", "level": "max"}, "unknown thinking level 'max'"),
        ({"type": "set_steering_mode", "mode": "some"}, "unknown mode 'some'"),
        ({"type": "fork", "entryId": "nope"}, "no user message with entry id 'nope'"),
        ({"type": "navigate_tree"}, "field 'entryId' must be an entry id or null"),
        (
            {"type": "switch_session", "sessionPath": "/nowhere/x"},
            "no session file at /nowhere/x",
        ),
        ({"type": 7}, "missing string field 'type'"),
    ]
    for number, (command, message) in enumerate(cases):
        await rpc.command(id=f"c{number}", **command)
        (response,) = rpc.output()
        assert response["id"] == f"c{number}" and response["success"] is False, response
        assert message in response["error"], (command, response)
    await rpc.server.shutdown()


async def test_a_prompt_while_busy_needs_a_streaming_behavior(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path, [reply(text("slow reply", chunk_size=2), delay=0.02), "second"])
    await rpc.command(id="p1", type="prompt", message="first")
    assert rpc.output()[0] == {"id": "p1", "type": "response", "command": "prompt", "success": True}
    await rpc.until(lambda m: m.get("type") == "message_update")
    await rpc.command(id="p2", type="prompt", message="again")
    (busy,) = [m for m in rpc.output() if m.get("id") == "p2"]
    assert busy["success"] is False and "streamingBehavior" in busy["error"]
    await rpc.command(id="p3", type="prompt", message="after that", streamingBehavior="followUp")
    state_lines = await rpc.until(lambda m: m.get("id") == "p3")
    assert state_lines[-1]["success"] is True
    await rpc.until(lambda m: m.get("type") == "agent_settled")
    sent = [json.dumps([str(m) for m in c.messages]) for c in rpc.provider.contexts]
    assert len(sent) == 2 and "after that" in sent[1]
    await rpc.server.shutdown()


async def test_unknown_commands_and_parse_errors_keep_the_server_answering(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    await rpc.line(b"{not json")
    await rpc.line(b"")
    await rpc.line(b"[]")
    await rpc.command(id="u", type="launch_rockets")
    await rpc.command(id="s", type="get_state")
    out = rpc.output()
    assert [(m["command"], m["success"]) for m in out] == [
        ("parse", False),
        ("parse", False),
        ("launch_rockets", False),
        ("get_state", True),
    ]
    assert "id" not in out[0] and out[2]["error"] == "Unknown command: launch_rockets"


# Commands whose random fields could touch the machine (a shell command, a file path to write)
# are left out; their field checks are covered above and end to end.
FUZZED = sorted(set(HANDLERS) - {"bash", "export_html"})
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
FIELD_NAMES = st.sampled_from(
    [
        "message",
        "images",
        "streamingBehavior",
        "level",
        "mode",
        "enabled",
        "provider",
        "modelId",
        "entryId",
        "label",
        "name",
        "sessionPath",
        "parentSession",
        "customInstructions",
        "all",
        "id",
    ]
)
COMMANDS = st.builds(
    lambda kind, fields: {**fields, "type": kind},
    st.sampled_from(FUZZED) | st.text(max_size=8),
    st.dictionaries(FIELD_NAMES, VALUES, max_size=4),
)
LINES = st.one_of(
    COMMANDS.map(lambda c: json.dumps(c).encode()),
    st.binary(max_size=30).filter(lambda b: b"\n" not in b),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, min_size=1, max_size=12))
def test_fuzzed_input_never_stops_the_server_and_every_command_is_answered(lines: list[bytes]) -> None:
    async def scenario(root: Path) -> None:
        rpc = InProcess(root, ["ok"] * 20)
        for line in lines:
            await rpc.line(line)
            await asyncio.sleep(0)
        await rpc.server.shutdown()
        responses = [m for m in rpc.output() if m.get("type") == "response"]
        non_blank = [line for line in lines if line.strip()]
        answered_ui = sum(b'"extension_ui_response"' in line for line in non_blank)
        assert len(responses) >= len(non_blank) - answered_ui
        path = rpc.control.session.session_file
        if path is not None and path.exists():
            SessionLog(JsonlSessionStorage.open(path, read_only=True)).state()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp)))
