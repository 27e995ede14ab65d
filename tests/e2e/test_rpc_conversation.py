"""A conversation driven entirely over RPC against a local scripted model server."""

from __future__ import annotations

import json
from pathlib import Path

from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server


def _types(events: list[dict[str, object]]) -> list[object]:
    return [e["type"] for e in events]


async def test_prompt_streams_every_event_in_order_after_the_response(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project.root / "a.txt").write_text("alpha\n")
    replies = [
        ScriptedReply(text="Reading.", calls=[ScriptedCall("call_1", "read", {"path": "a.txt"})]),
        ScriptedReply(chunks=("It ", "says ", "alpha.")),
    ]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        tau = await start(project)
        await tau.send({"type": "prompt", "message": "What is in a.txt?"})  # no id: response is in order
        events = await tau.wait_for("agent_settled")
        assert events[0] == {"type": "response", "command": "prompt", "success": True}
        kinds = _types(events[1:])
        assert kinds[:4] == ["agent_start", "turn_start", "message_start", "message_end"]
        assert kinds[-3:] == ["turn_end", "agent_end", "agent_settled"]
        assert kinds.index("tool_execution_start") < kinds.index("tool_execution_end")
        assert all("id" not in e for e in events[1:])
        deltas = [
            e["assistantMessageEvent"]["delta"]
            for e in events
            if e["type"] == "message_update" and e["assistantMessageEvent"]["type"] == "text_delta"
        ]
        assert "".join(deltas) == "Reading.It says alpha."
        tool_end = next(e for e in events if e["type"] == "tool_execution_end")
        assert "alpha" in json.dumps(tool_end["result"]) and tool_end["isError"] is False
        assert await tau.get_last_assistant_text() == "It says alpha."
        messages = await tau.get_messages()
        assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "assistant"]
        stats = await tau.get_session_stats()
        assert (stats["userMessages"], stats["assistantMessages"], stats["toolCalls"]) == (1, 2, 1)
        assert stats["tokens"]["input"] == 200
        assert await tau.close() == 0


async def test_steer_mid_run_reaches_the_model_after_the_running_tool(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_1", "bash", {"command": "sleep 0.5; echo slept"})]),
        ScriptedReply(text="Changed course."),
        ScriptedReply(text="Followed up."),
    ]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        tau = await start(project, "--permission-mode", "yolo")
        await tau.prompt("Run the slow thing")
        await tau.wait_for("tool_execution_start")
        await tau.steer("Actually, stop and summarise")
        await tau.prompt("And then say bye", streaming_behavior="followUp")
        state = await tau.get_state()
        assert state["isStreaming"] is True and state["pendingMessageCount"] == 2
        events = await tau.wait_for("agent_settled")
        assert "slept" in json.dumps(next(e for e in events if e["type"] == "tool_execution_end"))
        queues = [(e["steering"], e["followUp"]) for e in events if e["type"] == "queue_update"]
        assert queues == [  # Pi's queue_update: queued, queued, taken by the loop, taken
            (["Actually, stop and summarise"], []),
            (["Actually, stop and summarise"], ["And then say bye"]),
            ([], ["And then say bye"]),
            ([], []),
        ]
        assert len(srv.requests) == 3
        assert "Actually, stop and summarise" in json.dumps(srv.requests[1].json())
        assert "And then say bye" in json.dumps(srv.requests[2].json())
        assert await tau.get_last_assistant_text() == "Followed up."
        assert await tau.close() == 0


async def test_abort_ends_the_run_and_the_next_prompt_works(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    stalled = Scripted(body=sse_body(API, ScriptedReply(chunks=("partial ", "never sent"))), stall_after=340)
    async with server(API, [stalled, ScriptedReply(text="Fresh answer.")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        await tau.prompt("Go slowly")
        await tau.wait_for("message_update")
        await tau.abort()  # answers once the run has ended
        assert (await tau.get_state())["isStreaming"] is False
        events = await tau.wait_for("agent_settled")
        ends = [e for e in events if e["type"] == "message_end" and e["message"]["role"] == "assistant"]
        assert ends[-1]["message"]["stopReason"] == "aborted"
        await tau.prompt_and_wait("Try again")
        assert await tau.get_last_assistant_text() == "Fresh answer."
        assert await tau.close() == 0


async def test_closing_stdin_mid_run_shuts_down_with_the_session_file_intact(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    first = ScriptedReply(text="Done once.")
    stalled = Scripted(body=sse_body(API, ScriptedReply(chunks=("half ", "never"))), stall_after=340)
    async with server(API, [first, stalled]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        await tau.prompt_and_wait("First")
        await tau.prompt("Second")
        await tau.wait_for("message_update")
        assert await tau.close(timeout=20) == 0
        assert await tau.stderr_text() == ""
    (path,) = project.session_files()
    for line in path.read_text().splitlines():
        json.loads(line)
    log = SessionLog(JsonlSessionStorage.open(path))
    roles = [m.role for m in log.state().messages]
    assert roles == ["user", "assistant", "user", "assistant"]
    assert log.state().messages[-1].stop_reason == "aborted"  # type: ignore[union-attr]
    log.close()
