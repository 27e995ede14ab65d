from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.content import text_of
from tau_agent.events import ToolExecutionEndEvent, ToolExecutionUpdateEvent
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, ToolResultMessage, UserMessage
from tau_agent.testing import FakeProvider, call, reply
from tau_coding.tools import ALL_TOOLS, DEFAULT_TOOLS, create_coding_tools, select_tools


def test_factory_builds_every_tool_with_a_schema_and_description(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path)
    assert tuple(tools) == ALL_TOOLS and DEFAULT_TOOLS == ("read", "write", "edit", "bash")
    for name, tool in tools.items():
        assert tool.name == name and tool.description and tool.label and tool.prompt_snippet
        assert tool.parameters["type"] == "object"
        json.dumps(tool.parameters)  # providers need plain JSON


def test_select_tools_keeps_order_and_names_unknown_tools(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path)
    assert [t.name for t in select_tools(tools, ["ls", "read"])] == ["ls", "read"]
    with pytest.raises(KeyError, match="unknown tool 'rm'"):
        select_tools(tools, ["rm"])


async def test_tools_run_inside_the_agent_loop(tmp_path: Path) -> None:
    """A scripted model writes, edits, reads and runs in one reply; the loop records each result."""
    tools = create_coding_tools(tmp_path)
    provider = FakeProvider(
        [
            reply(
                "working",
                call("write", {"path": "notes/a.txt", "content": "one\ntwo\n"}),
                call("bash", {"command": "sleep 0.25; echo ran", "timeout": "5"}),
            ),
            reply(call("edit", {"path": "notes/a.txt", "edits": [{"oldText": "two", "newText": "2"}]})),
            reply(call("read", {"path": "@notes/a.txt", "offset": "1"})),
            reply("done"),
        ]
    )
    config = LoopConfig(provider=provider, tools=select_tools(tools, DEFAULT_TOOLS))
    messages: list[AgentMessage] = []
    events = [e async for e in run_agent_loop([UserMessage("go")], messages, config)]
    results = [m for m in messages if isinstance(m, ToolResultMessage)]
    assert [(r.tool_name, r.is_error) for r in results] == [
        ("write", False),
        ("bash", False),
        ("edit", False),
        ("read", False),
    ]
    assert text_of(results[-1].content) == "one\n2"
    assert text_of(results[1].content) == "ran"
    assert any(isinstance(e, ToolExecutionUpdateEvent) and e.tool_name == "bash" for e in events)
    assert sum(isinstance(e, ToolExecutionEndEvent) for e in events) == 4


async def test_a_tool_never_raises_even_on_unexpected_failures(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path / "missing-cwd")
    out = await tools["bash"].execute("id", {"command": "true"}, CancellationToken(), lambda r: None)
    assert out.is_error and "working directory" in text_of(out.content)
    ls = await tools["ls"].execute("id", {}, CancellationToken(), lambda r: None)
    assert ls.is_error and text_of(ls.content) == "Path not found: ."
