"""A server that crashes or hangs mid-session is restarted: by the next call (after a backoff) or
by ``/mcp restart``; reported once in one line, and the session goes on. Real SDK servers."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentToolResult
from tau_coding.mcp.backoff import restart_delay
from tau_coding.mcp.manager import McpManager
from tests.coding.mcp.conftest import stdio_server

LIMIT = 90.0


def _text(result: AgentToolResult) -> str:
    return result.content[0].text  # type: ignore[union-attr]


async def _started(tmp_path: Path, reports: list[str], **options: object) -> McpManager:
    manager = McpManager(
        [stdio_server()],
        cwd=tmp_path,
        report=reports.append,
        connect_timeout=LIMIT,
        **options,  # type: ignore[arg-type]
    )
    manager.start()
    assert await manager.wait_settled(LIMIT + 10) == []
    return manager


async def _call(manager: McpManager, tool: str, args: dict[str, object], timeout: float = 30) -> str:
    """The answer's text, or ``error: ...`` as the model would see it."""
    from tau_coding.mcp.status import McpCallError

    try:
        result = await manager.call("srv", tool, args, timeout=timeout, signal=CancellationToken())
    except McpCallError as exc:
        return f"error: {exc}"
    return str(result.content[0].text)  # type: ignore[union-attr]


def _state(manager: McpManager) -> str:
    return manager.statuses()[0].state


def test_the_restart_delay_doubles_and_is_capped() -> None:
    assert [restart_delay(n, base=1, cap=10) for n in range(7)] == [0, 0, 1, 2, 4, 8, 10]
    assert restart_delay(10_000) == 60.0


async def test_a_crashed_server_is_restarted_by_the_next_call_with_backoff(tmp_path: Path) -> None:
    reports: list[str] = []
    manager = await _started(tmp_path, reports, backoff=(3.0, 3.0))
    try:
        assert (await _call(manager, "die", {})).startswith("error:")
        assert _state(manager) == "failed"
        # First failure: the next call restarts it at once, and gets its answer.
        assert await _call(manager, "echo", {"text": "back"}) == "back"
        assert _state(manager) == "ready"
        # Two crashes in a row: the second restart waits out the backoff.
        assert (await _call(manager, "die", {})).startswith("error:")
        assert (await _call(manager, "die", {})).startswith("error:")
        refused = await _call(manager, "echo", {"text": "too soon"})
        assert "restarted by a call in 3 s" in refused and "/mcp restart srv" in refused
        assert _state(manager) == "failed"
        await asyncio.sleep(3.2)
        assert await _call(manager, "echo", {"text": "later"}) == "later"
        # One line per outage: the crash before "back", then the two in a row before "later".
        assert reports == ["MCP server srv: connection closed"] * 2
    finally:
        manager.close()


async def test_restart_asked_for_skips_the_backoff(tmp_path: Path) -> None:
    reports: list[str] = []
    manager = await _started(tmp_path, reports, backoff=(600.0, 600.0))
    try:
        for _ in range(2):  # the second call restarts it, and it crashes again
            assert (await _call(manager, "die", {})).startswith("error:")
        assert "restarted by a call in" in await _call(manager, "echo", {"text": "x"})
        assert manager.reconnect("srv")
        for _ in range(int(LIMIT * 10)):
            if _state(manager) == "ready":
                break
            await asyncio.sleep(0.1)
        assert await _call(manager, "echo", {"text": "now"}) == "now"
        assert len(reports) == 1
    finally:
        manager.close()


async def test_a_hung_server_fails_its_call_is_killed_and_restarted_by_the_next(tmp_path: Path) -> None:
    reports: list[str] = []
    manager = await _started(tmp_path, reports, ping_timeout=1.0)
    try:
        hung = await asyncio.wait_for(_call(manager, "hang", {}, timeout=1.0), 30)
        assert hung.startswith("error:") and "timed out" in hung
        assert _state(manager) == "failed"
        assert reports == ["MCP server srv: stopped answering (no answer to a ping within 1 s)"]
        assert await asyncio.wait_for(_call(manager, "echo", {"text": "alive"}), LIMIT) == "alive"
        assert len(reports) == 1
    finally:
        manager.close()


async def test_a_slow_call_on_a_live_server_times_out_without_a_restart(tmp_path: Path) -> None:
    reports: list[str] = []
    manager = await _started(tmp_path, reports, ping_timeout=5.0)
    try:
        assert "timed out" in await _call(manager, "slow", {"seconds": 30}, timeout=0.5)
        assert _state(manager) == "ready" and reports == []
    finally:
        manager.close()


async def test_calls_arriving_together_share_one_restart(tmp_path: Path) -> None:
    reports: list[str] = []
    manager = await _started(tmp_path, reports)
    try:
        assert (await _call(manager, "die", {})).startswith("error:")
        answers = await asyncio.gather(*(_call(manager, "echo", {"text": t}) for t in "abc"))
        assert answers == ["a", "b", "c"]
        assert len(reports) == 1
    finally:
        manager.close()
