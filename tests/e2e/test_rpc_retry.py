"""Agent-level retry over RPC: the events, ``set_auto_retry`` and ``abort`` during the wait."""

from __future__ import annotations

import json
from pathlib import Path

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server

PARTIAL = ScriptedReply(chunks=("Half of ", "the answer"))


def _cut() -> Scripted:
    body = sse_body(API, PARTIAL)
    return Scripted(body=body, cut_after=body.index(b"the answer") - 1)


def _settings(tmp_path: Path, retry: dict[str, object]) -> None:
    home = tmp_path / "home" / ".tau"
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"retry": retry}))


async def test_rpc_reports_the_retry_and_set_auto_retry_switches_it_off(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    _settings(tmp_path, {"baseDelayMs": 10})
    async with server(API, [_cut(), ScriptedReply(text="Whole."), _cut()]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        events = await tau.prompt_and_wait("first")
        kinds = [e["type"] for e in events]
        assert kinds.count("auto_retry_start") == 1 and kinds.count("auto_retry_end") == 1
        end = next(e for e in events if e["type"] == "auto_retry_end")
        assert end == {"type": "auto_retry_end", "success": True, "attempt": 1}
        assert len(srv.requests) == 2

        await tau.request("set_auto_retry", enabled=False)
        events = await tau.prompt_and_wait("second")
        assert "auto_retry_start" not in [e["type"] for e in events]
        assert len(srv.requests) == 3
        assert await tau.close() == 0


async def test_rpc_abort_during_the_wait_ends_the_run_at_once(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    _settings(tmp_path, {"baseDelayMs": 60_000})
    async with server(API, [_cut(), ScriptedReply(text="never")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        await tau.prompt("question")
        await tau.wait_for("auto_retry_start")
        await tau.abort()
        events = await tau.wait_for("agent_settled", timeout=10)
        end = next(e for e in events if e["type"] == "auto_retry_end")
        assert end["success"] is False and end["finalError"] == "Retry cancelled"
        assert len(srv.requests) == 1
        assert (await tau.get_state())["isStreaming"] is False
        assert await tau.close() == 0
