"""MCP through the composition root: with and without an extension host, /mcp, tool refresh."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tau_agent.messages import ToolResultMessage
from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import call, reply
from tau_coding.app.wiring import Options, build_session
from tau_coding.mcp.hooks import McpHooks
from tau_coding.mcp.session import McpSession
from tau_coding.mcp.status import ServerStatus
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.events import InputHandledEvent
from tests.coding.mcp.conftest import TOOL_SERVER

MODEL = "local/m"


class Home:
    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "project"
        self.root.mkdir()
        self.tau_home = tmp_path / "home" / ".tau"
        self.tau_home.mkdir(parents=True)
        provider = {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "models": [{"id": "m"}]}
        (self.tau_home / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        settings = {
            "mcpServers": {"srv": {"command": sys.executable, "args": [TOOL_SERVER]}},
            "mcp": {"startupTimeoutMs": 90000},
            "permissions": {"allow": ["mcp__srv"]},  # the server's tools run unasked (docs/permissions.md)
        }
        (self.tau_home / "settings.json").write_text(json.dumps(settings))
        self.env = {"HOME": str(tmp_path / "home"), "TAU_HOME": str(self.tau_home)}
        self.provider = FakeProvider()
        self.warnings: list[str] = []

    def set(self, key: str, value: object) -> None:
        settings = json.loads((self.tau_home / "settings.json").read_text())
        settings["mcp"][key] = value
        (self.tau_home / "settings.json").write_text(json.dumps(settings))

    def build(self, **options: object) -> CodingSession:
        return build_session(
            Options(model=MODEL, no_session=True, **options),  # type: ignore[arg-type]
            self.env,
            self.root,
            warn=self.warnings.append,
            provider_factory=lambda model, key: self.provider,
        )


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    yield Home(tmp_path)


async def _run(session: CodingSession, text: str) -> list[object]:
    return [event async for event in session.prompt(text)]


async def test_without_extensions_mcp_is_the_sessions_hooks(home: Home) -> None:
    home.provider.add(reply(call("mcp__srv__echo", {"text": "hey"}, id="c1")), "done")
    session = home.build()
    try:
        assert isinstance(session.hooks, McpHooks)
        names = [name for name, _ in session.hooks.command_list()]
        assert "mcp" in names and "reload" in names  # the built-in commands are kept
        await _run(session, "use the tool")
        assert "mcp__srv__echo" in {t.name for t in session.harness.tools}
        assert "read" in {t.name for t in session.harness.tools}  # the built-ins are kept
        results = [m for m in session.messages if isinstance(m, ToolResultMessage)]
        assert results[0].content[0].text == "hey"  # type: ignore[union-attr]
        handled = await _run(session, "/mcp")
        text = next(e.text for e in handled if isinstance(e, InputHandledEvent))
        assert text is not None and "srv (stdio): ready" in text and "echo" in text
        assert home.provider.calls == 2  # /mcp never reached the model
    finally:
        session.close()


async def test_with_an_extension_host_mcp_is_a_builtin_extension(home: Home, tmp_path: Path) -> None:
    extension = tmp_path / "ext.py"
    extension.write_text("def activate(tau):\n    tau.register_command('hello', lambda args: 'hi')\n")
    home.provider.add(reply(call("mcp__srv__echo", {"text": "via host"}, id="c1")), "done")
    session = home.build(extensions=[str(extension)])
    try:
        assert not isinstance(session.hooks, McpHooks)
        await _run(session, "use the tool")
        results = [m for m in session.messages if isinstance(m, ToolResultMessage)]
        assert results[0].content[0].text == "via host"  # type: ignore[union-attr]
        handled = await _run(session, "/mcp")
        text = next(e.text for e in handled if isinstance(e, InputHandledEvent))
        assert text is not None and "srv (stdio): ready" in text
    finally:
        session.close()


async def test_a_tool_list_change_reaches_the_next_prompt(home: Home) -> None:
    home.provider.add(reply(call("mcp__srv__grow", {}, id="c1")), "grown", "again")
    session = home.build()
    try:
        await _run(session, "grow")
        assert "mcp__srv__grown" not in {t.name for t in session.harness.tools}
        for _ in range(100):
            await asyncio.sleep(0.05)
            if any(t.name == "grown" for s in _statuses(session) for t in s.tools):
                break
        await _run(session, "next")
        assert "mcp__srv__grown" in {t.name for t in session.harness.tools}
        assert "mcp__srv__grown" in [t.name for t in home.provider.contexts[-1].tools]
    finally:
        session.close()


def _statuses(session: CodingSession) -> list[ServerStatus]:
    hooks = session.hooks
    assert isinstance(hooks, McpHooks)
    assert isinstance(hooks.mcp, McpSession)
    return hooks.mcp.manager.statuses()


async def test_a_server_prompt_is_a_slash_command_whose_text_goes_to_the_model(home: Home) -> None:
    home.provider.add("reviewed", "again")
    session = home.build()
    try:
        await _run(session, "/mcp__srv__review 42 error handling")
        sent = home.provider.contexts[0].messages[-1]
        assert "Review pull request #42, looking at error handling." in json.dumps(sent.content)  # type: ignore[union-attr]
        assert session.hooks is not None
        assert ("mcp__srv__review", "Review a pull request.") in session.hooks.command_list()
        handled = await _run(session, "/mcp__srv__review")
        text = next(e.text for e in handled if isinstance(e, InputHandledEvent))
        assert text == "/mcp__srv__review needs <number>"
        assert home.provider.calls == 1
    finally:
        session.close()


def test_prompt_words_fill_arguments_in_order_and_the_rest_joins_the_last() -> None:
    from tau_coding.mcp.session import prompt_arguments

    spec = (("number", True), ("focus", False))
    assert prompt_arguments(spec, '7 "error paths" and tests') == {
        "number": "7",
        "focus": "error paths and tests",
    }
    assert prompt_arguments(spec, "7") == {"number": "7"}
    assert prompt_arguments(spec, 'unbalanced "quote') == {"number": "unbalanced", "focus": '"quote'}
    assert prompt_arguments((), "ignored words") == {}


async def test_too_many_tool_definitions_go_behind_a_search_tool(home: Home) -> None:
    home.set("toolSearchShare", 0.001)  # the fixture's tools are more than 0.1% of the window
    home.provider.add(
        reply(call("mcp_search_tools", {"query": "echo text back"}, id="c1")),
        reply(call("mcp_call_tool", {"name": "mcp__srv__echo", "arguments": {"times": 2}}, id="c2")),
        reply(call("mcp_call_tool", {"name": "mcp__srv__echo", "arguments": {"text": "found"}}, id="c3")),
        "done",
    )
    session = home.build()
    try:
        await _run(session, "echo via search")
        offered = [t.name for t in home.provider.contexts[0].tools]
        assert "mcp_search_tools" in offered and "mcp_call_tool" in offered
        assert not [n for n in offered if n.startswith("mcp__")]
        found, invalid, called = [m for m in session.messages if isinstance(m, ToolResultMessage)]
        listed = json.loads(found.content[0].text)  # type: ignore[union-attr]
        assert listed[0]["name"] == "mcp__srv__echo"
        assert listed[0]["inputSchema"]["required"] == ["text"]
        assert invalid.is_error and "text" in invalid.content[0].text  # type: ignore[union-attr]
        assert called.content[0].text == "found"  # type: ignore[union-attr]
    finally:
        session.close()


async def test_resource_mentions_are_read_and_attached_to_the_prompt(home: Home) -> None:
    home.provider.add("noted")
    session = home.build()
    try:
        await _run(session, "Plan from @srv:notes://today and @srv:notes://missing; mail me@example.com")
        sent = json.dumps(home.provider.contexts[0].messages[-1].content)  # type: ignore[union-attr]
        assert "Plan from @srv:notes://today" in sent
        assert '<mcp-resource server=\\"srv\\" uri=\\"notes://today\\">\\nShip the MCP client.' in sent
        assert 'uri=\\"notes://missing\\">\\n(could not be read:' in sent
        assert 'example.com\\">' not in sent  # an e-mail address is not a mention
    finally:
        session.close()
