"""McpManager against real MCP servers (the SDK's MCPServer) over stdio and HTTP on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent, TextContent
from tau_agent.tools import AgentTool, AgentToolResult
from tau_coding.mcp.config import ServerConfig
from tau_coding.mcp.manager import McpManager
from tau_coding.mcp.status import McpCallError
from tau_coding.mcp.tools import mcp_tool
from tests.coding.mcp.conftest import broken_server, stdio_server

LIMIT = 90.0  # generous: four agents share two cores while these run


class Running:
    def __init__(self, manager: McpManager, reports: list[str]) -> None:
        self.manager = manager
        self.reports = reports

    def tools(self, server: str = "srv", timeout: float | None = 30) -> dict[str, AgentTool]:
        status = next(s for s in self.manager.statuses() if s.name == server)
        return {info.name: mcp_tool(self.manager, info, timeout=timeout) for info in status.tools}

    def state(self, server: str) -> str:
        return next(s.state for s in self.manager.statuses() if s.name == server)


async def _start(servers: Sequence[ServerConfig], tmp_path: Path, connect_timeout: float = LIMIT) -> Running:
    reports: list[str] = []
    manager = McpManager(servers, cwd=tmp_path, report=reports.append, connect_timeout=connect_timeout)
    manager.start()
    assert await manager.wait_settled(LIMIT + 10) == []
    return Running(manager, reports)


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    log = tmp_path / "server.log"
    started = await _start([stdio_server(env={"MCP_FIXTURE_LOG": str(log)})], tmp_path)
    yield started
    started.manager.close()


async def _call(
    tool: AgentTool, args: dict[str, object], signal: CancellationToken | None = None
) -> AgentToolResult:
    return await tool.execute("call-1", args, signal or CancellationToken(), lambda _: None)


async def test_tools_are_listed_with_the_servers_schemas(running: Running) -> None:
    tools = running.tools()
    assert {"echo", "every_content", "fail", "slow", "die", "grow"} <= tools.keys()
    echo = tools["echo"]
    assert echo.name == "mcp__srv__echo"
    assert echo.parameters["required"] == ["text"]
    assert echo.description == "Echo text back, repeated."
    result = await _call(echo, {"text": "hi", "times": 3})
    assert not result.is_error
    assert next(b.text for b in result.content if isinstance(b, TextContent)) == "hi hi hi"


async def test_every_content_type_becomes_tau_content(running: Running) -> None:
    result = await _call(running.tools()["every_content"], {})
    texts = [b.text for b in result.content if isinstance(b, TextContent)]
    images = [b for b in result.content if isinstance(b, ImageContent)]
    assert texts[0] == "plain text"
    assert images and images[0].mime_type == "image/png"
    assert "Resource link: notes file:///tmp/notes.md [text/markdown]" in texts
    assert "Resource mem://readme:\nembedded text" in texts
    assert any(t.startswith("Resource mem://blob:") and "3 bytes" in t for t in texts)
    assert texts[-1] == '{"answer": 42}'
    assert result.details["structuredContent"] == {"answer": 42}


async def test_is_error_becomes_a_tool_error(running: Running) -> None:
    result = await _call(running.tools()["fail"], {})
    assert result.is_error
    assert "it broke" in result.content[0].text  # type: ignore[union-attr]


async def test_cancelling_the_turn_cancels_the_call_on_the_server(running: Running, tmp_path: Path) -> None:
    signal = CancellationToken()
    call = asyncio.ensure_future(_call(running.tools()["slow"], {"seconds": 30}, signal))
    await asyncio.sleep(1.0)
    signal.cancel()
    result = await asyncio.wait_for(call, 10)
    assert result.is_error and "aborted" in result.content[0].text  # type: ignore[union-attr]
    log = tmp_path / "server.log"
    for _ in range(100):  # the server notes notifications/cancelled when it handles it
        if log.exists() and "cancelled" in log.read_text():
            break
        await asyncio.sleep(0.1)
    assert log.read_text() == "cancelled\n"
    assert running.state("srv") == "ready"  # the server lives on


async def test_a_call_that_outlives_its_timeout_is_an_error(running: Running) -> None:
    slow = running.tools(timeout=0.5)["slow"]
    result = await asyncio.wait_for(_call(slow, {"seconds": 30}), 20)
    assert result.is_error
    assert running.state("srv") == "ready"


async def test_list_changed_refreshes_the_tools(running: Running) -> None:
    before = running.manager.generation
    await _call(running.tools()["grow"], {})
    for _ in range(100):
        if "grown" in running.tools():
            break
        await asyncio.sleep(0.05)
    assert running.manager.generation > before
    result = await _call(running.tools()["grown"], {})
    assert result.content[0].text == "grown!"  # type: ignore[union-attr]


async def test_a_server_crashing_mid_call_is_reported_once_and_can_be_reconnected(running: Running) -> None:
    tools = running.tools()
    result = await _call(tools["die"], {})
    assert result.is_error
    assert running.state("srv") == "failed"
    assert running.manager.statuses()[0].tools == ()
    assert len(running.reports) == 1 and running.reports[0].startswith("MCP server srv:")
    # (A call restarts it too, after a backoff: test_restart.py.)
    assert running.manager.reconnect("srv")
    await asyncio.sleep(0.2)
    assert await running.manager.wait_settled(LIMIT) == []
    assert running.state("srv") == "ready"
    assert (await _call(running.tools()["echo"], {"text": "back"})).content[0].text == "back"  # type: ignore[union-attr]
    assert len(running.reports) == 1


async def test_failing_servers_are_one_line_each_and_others_still_work(tmp_path: Path) -> None:
    servers = [
        stdio_server("good"),
        broken_server("crash", "crash"),
        broken_server("mute", "mute"),
        ServerConfig("missing", "stdio", str(tmp_path / "no-such-command")),
    ]
    reports: list[str] = []
    manager = McpManager(servers, cwd=tmp_path, report=reports.append, connect_timeout=LIMIT / 3)
    manager.start()
    try:
        assert await manager.wait_settled(LIMIT) == []
        states = {s.name: (s.state, s.error or "") for s in manager.statuses()}
        assert states["good"][0] == "ready"
        assert states["crash"][0] == "failed" and "cannot open the database" in states["crash"][1]
        assert states["mute"][0] == "failed" and "no answer within" in states["mute"][1]
        assert states["missing"][0] == "failed" and "no-such-command" in states["missing"][1]
        assert sorted(r.split(":")[0] for r in reports) == [
            "MCP server crash",
            "MCP server missing",
            "MCP server mute",
        ]
        assert all("\n" not in r for r in reports)
    finally:
        manager.close()


async def test_the_first_prompt_waits_at_most_the_startup_timeout(tmp_path: Path) -> None:
    manager = McpManager([broken_server("mute", "mute")], cwd=tmp_path, report=lambda _: None)
    manager.start()
    try:
        loop = asyncio.get_running_loop()
        began = loop.time()
        assert await manager.wait_settled(0.5) == ["mute"]
        assert loop.time() - began < 5
    finally:
        manager.close()


async def test_streamable_http_server_on_loopback(http_port: int, tmp_path: Path) -> None:
    server = ServerConfig("web", "http", url=f"http://127.0.0.1:{http_port}/mcp", headers={"X-Test": "1"})
    started = await _start([server], tmp_path)
    try:
        tools = started.tools("web")
        result = await _call(tools["echo"], {"text": "over http"})
        assert result.content[0].text == "over http"  # type: ignore[union-attr]
    finally:
        started.manager.close()


async def test_sse_server_on_loopback(sse_port: int, tmp_path: Path) -> None:
    started = await _start([ServerConfig("old", "sse", url=f"http://127.0.0.1:{sse_port}/sse")], tmp_path)
    try:
        result = await _call(started.tools("old")["echo"], {"text": "over sse"})
        assert result.content[0].text == "over sse"  # type: ignore[union-attr]
    finally:
        started.manager.close()


async def test_structured_content_already_said_in_text_is_not_repeated(running: Running) -> None:
    result = await _call(running.tools()["echo"], {"text": "once"})  # the SDK adds {"result": "once"}
    assert [b.text for b in result.content if isinstance(b, TextContent)] == ["once"]
    assert result.details["structuredContent"] == {"result": "once"}


async def test_stdio_servers_get_taus_environment_less_credentials_plus_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAU_TEST_INHERITED", "from-tau")
    monkeypatch.setenv("TAU_TEST_API_KEY", "secret")
    monkeypatch.setenv("TAU_TEST_OTHER_KEY", "secret too")
    server = stdio_server(env={"TAU_TEST_OWN": "from-entry", "TAU_TEST_OTHER_KEY": "passed on"})
    manager = McpManager(
        [server],
        cwd=tmp_path,
        report=print,
        connect_timeout=LIMIT,
        scrub_env=frozenset({"TAU_TEST_API_KEY", "TAU_TEST_OTHER_KEY"}),
    )
    manager.start()
    try:
        assert await manager.wait_settled(LIMIT + 10) == []
        getenv = Running(manager, []).tools()["getenv"]
        seen = {}
        for name in ("TAU_TEST_INHERITED", "TAU_TEST_OWN", "TAU_TEST_API_KEY", "TAU_TEST_OTHER_KEY"):
            seen[name] = (await _call(getenv, {"name": name})).content[0].text  # type: ignore[union-attr]
        assert seen == {
            "TAU_TEST_INHERITED": "from-tau",
            "TAU_TEST_OWN": "from-entry",
            "TAU_TEST_API_KEY": "",  # a credential Tau reads keys from
            "TAU_TEST_OTHER_KEY": "passed on",  # the entry passes it on explicitly
        }
    finally:
        manager.close()


async def test_a_manager_never_started_holds_nothing_and_closes_quietly(tmp_path: Path) -> None:
    manager = McpManager([stdio_server()], cwd=tmp_path, report=lambda _: None)
    with pytest.raises(McpCallError, match="never started"):
        await manager.call("srv", "echo", {}, timeout=1, signal=CancellationToken())
    assert not manager.reconnect("srv")
    manager.close()
    assert [s.state for s in manager.statuses()] == ["starting"]
