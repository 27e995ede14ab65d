"""Built-in tools take the argument names other harnesses' tools use (file_path, old_string, cmd)."""

from __future__ import annotations

from pathlib import Path

from tau_agent.content import text_of
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, ToolResultMessage, UserMessage
from tau_agent.testing import FakeProvider, call, reply
from tau_coding.tools import create_coding_tools
from tau_coding.tools.argument_aliases import renaming


async def test_claude_code_style_calls_run_against_real_files(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path)
    provider = FakeProvider(
        [
            reply(call("write", {"file_path": "n.txt", "contents": "The word is PAPAYA.\n"})),
            reply(call("edit", {"file_path": "n.txt", "old_string": "PAPAYA", "new_string": "MANGO"})),
            reply(call("edit", {"path": "n.txt", "edits": [{"old_str": "word", "new_str": "fruit"}]})),
            reply(call("read", {"file_path": "n.txt"})),
            reply(call("bash", {"cmd": "cat n.txt"})),
            reply("done"),
        ]
    )
    config = LoopConfig(provider=provider, tools=[tools[n] for n in ("read", "write", "edit", "bash")])
    messages: list[AgentMessage] = []
    _ = [e async for e in run_agent_loop([UserMessage("go")], messages, config)]
    results = [m for m in messages if isinstance(m, ToolResultMessage)]
    assert [r.is_error for r in results] == [False] * 5, [text_of(r.content) for r in results]
    assert (tmp_path / "n.txt").read_text() == "The fruit is MANGO.\n"
    assert text_of(results[3].content) == text_of(results[4].content).rstrip("\n") == "The fruit is MANGO."


def test_our_own_names_win_and_unknown_aliases_stay_for_validation_to_name() -> None:
    prepare = renaming({"type": "object", "properties": {"path": {}, "content": {}}})
    assert prepare({"path": "a", "file_path": "b"}) == {"path": "a", "file_path": "b"}
    assert prepare({"file_path": "b", "cmd": "ls"}) == {"path": "b", "cmd": "ls"}  # no command here
    untouched = {"path": "a", "content": "x"}
    assert prepare(untouched) is untouched


def test_an_alias_that_is_itself_a_property_is_never_renamed() -> None:
    prepare = renaming({"type": "object", "properties": {"path": {}, "file": {}}})
    assert prepare({"file": "x"}) == {"file": "x"}
