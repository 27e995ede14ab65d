"""Per-session control of MCP servers: /mcp enable|disable|restart and the session's McpControl."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tau_agent.messages import ToolResultMessage
from tau_agent.testing.fake_provider import call, reply
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.events import InputHandledEvent
from tests.coding.mcp.test_session import Home

ECHO = "mcp__srv__echo"


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    yield Home(tmp_path)


async def _command(session: CodingSession, text: str) -> str:
    events = [event async for event in session.prompt(text)]
    answer = next(e.text for e in events if isinstance(e, InputHandledEvent))
    assert answer is not None
    return answer


async def _offered(session: CodingSession, home: Home, text: str) -> set[str]:
    """The tools the model saw for ``text``."""
    _ = [event async for event in session.prompt(text)]
    return {t.name for t in home.provider.contexts[-1].tools}


@pytest.mark.parametrize("host", [False, True], ids=["hooks", "extension-host"])
async def test_disabling_a_server_withholds_its_tools_from_the_next_request(
    home: Home, tmp_path: Path, host: bool
) -> None:
    extensions: list[str] = []
    if host:
        (tmp_path / "ext.py").write_text("def activate(tau):\n    pass\n")
        extensions = [str(tmp_path / "ext.py")]
    home.provider.add("one", reply(call(ECHO, {"text": "late"}, id="c1")), "two", "three")
    session = home.build(extensions=extensions)
    try:
        assert ECHO in await _offered(session, home, "first")
        assert "disabled for this session" in await _command(session, "/mcp disable srv")
        offered = await _offered(session, home, "second")  # the model calls it anyway
        assert not [name for name in offered if name.startswith("mcp__srv__")]
        refused = [m for m in session.messages if isinstance(m, ToolResultMessage)][-1]
        assert refused.is_error
        assert "srv" in str(refused.content[0].text)  # type: ignore[union-attr]
        assert "disabled in this session" in await _command(session, "/mcp")
        assert session.mcp is not None
        assert [s["enabled"] for s in session.mcp.status()] == [False]
        assert "enabled for this session" in await _command(session, "/mcp enable srv")
        assert ECHO in await _offered(session, home, "third")
        assert "no server named 'nope'" in await _command(session, "/mcp disable nope")
    finally:
        session.close()


async def test_mcp_restart_restarts_a_crashed_server_at_once(home: Home) -> None:
    home.provider.add(reply(call("mcp__srv__die", {}, id="c1")), "it died")
    session = home.build()
    try:
        _ = [event async for event in session.prompt("crash it")]
        assert session.mcp is not None
        assert session.mcp.status()[0]["state"] == "failed"
        assert await _command(session, "/mcp restart srv") == "Restarting srv."
        for _ in range(900):
            if session.mcp.status()[0]["state"] == "ready":
                break
            await asyncio.sleep(0.1)
        status = session.mcp.status()[0]
        assert status["state"] == "ready" and ECHO in status["tools"]
    finally:
        session.close()
