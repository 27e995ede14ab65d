"""``get_state`` reports the real compaction state, and ``compact`` on a short context works as in Pi."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server

SUMMARY = "## Goal\nSay hello."


async def test_get_state_reports_auto_compaction_and_a_compaction_in_progress(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    slow_summary = Scripted(body=sse_body(API, ScriptedReply(text=SUMMARY)), split_at=[40], delay=1.0)
    async with server(API, [ScriptedReply(text="Hello."), slow_summary]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        state = await tau.get_state()
        assert (state["autoCompactionEnabled"], state["isCompacting"]) == (True, False)
        await tau.prompt_and_wait("hi")

        compaction = asyncio.ensure_future(tau.request_response("compact"))
        seen = []
        while not compaction.done() and len(seen) < 200:
            seen.append((await tau.get_state())["isCompacting"])
            await asyncio.sleep(0.02)
        response = await compaction
        assert response["success"] is True, response
        assert True in seen
        # announced as Pi 0.73 announces every compaction, a manual one included
        start_event = await tau.wait_for("compaction_start")
        assert start_event[-1] == {"type": "compaction_start", "reason": "manual"}
        end = (await tau.wait_for("compaction_end"))[-1]
        assert (end["reason"], end["aborted"], end["result"]["summary"]) == ("manual", False, SUMMARY)
        assert (await tau.get_state())["isCompacting"] is False

        # a short context is compacted keeping everything, as Pi does: the summary comes first
        messages = await tau.get_messages()
        assert [m["role"] for m in messages] == ["compactionSummary", "user", "assistant"]
        assert messages[0]["summary"] == SUMMARY
        summary_request = json.dumps(srv.requests[-1].json())
        assert "<conversation>\\n\\n</conversation>" in summary_request

        await tau.request("set_auto_compaction", enabled=False)
        assert (await tau.get_state())["autoCompactionEnabled"] is False
        await tau.request("set_auto_compaction", enabled=True)
        assert (await tau.get_state())["autoCompactionEnabled"] is True
        assert await tau.close() == 0
