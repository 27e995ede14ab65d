"""Subagents and the task list over RPC: ``tau --mode rpc`` against one scripted local model.

An abort while children wait on the model stops every child (each hangs up its request) and
each task is an error result; the session's stats count each child's usage once; a ``todo``
call reaches the client in ``tool_execution_end`` (its ``details``) and as the ``setWidget``
and ``setStatus`` UI requests of the ``todo`` widget, which follow a move in the tree.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tau_ai.testing.replay_server import RecordedRequest, ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.e2e.rpc_project import API, configure_two_models, make_project, start
from tests.e2e.subagent_script import CHILD_MARK, Child, Script


async def test_abort_stops_every_child_and_each_task_is_an_error(tmp_path: Path) -> None:
    stalled = ScriptedReply(text="I will never finish this sentence because the network stalls")
    body = sse_body(API, stalled)
    script = Script([Child(f"stall {n}", Scripted(body=body, stall_after=40)) for n in range(3)])
    project = make_project(tmp_path)
    async with ReplayServer(script.responder(), keep_alive=True) as server:
        configure_two_models(project, server.url)
        client = await start(project)
        try:
            await client.prompt("Start three")
            for _ in range(200):  # until every child has asked the model
                if sum(CHILD_MARK in json.dumps(r.json()) for r in server.requests) == 3:
                    break
                await asyncio.sleep(0.05)
            await client.abort()
            events = await client.wait_for("agent_settled", 30)
            for _ in range(100):
                if server.hangups >= 3:
                    break
                await asyncio.sleep(0.05)
            assert server.hangups >= 3
            ends = [e for e in events if e.get("type") == "tool_execution_end"]
            assert [e["toolName"] for e in ends] == ["task"] * 3
            assert all(e["isError"] for e in ends)
            assert all("cancelled" in e["result"]["content"][0]["text"] for e in ends)
            # Every call has its result in the record, and the parent's context holds no child text.
            messages = await client.get_messages()
            assert [m["role"] for m in messages].count("toolResult") == 3
            assert "never finish" not in json.dumps(messages)
        finally:
            await client.close()


async def test_session_stats_count_each_childs_usage_once(tmp_path: Path) -> None:
    script = Script([Child("count a", ScriptedReply(text="a")), Child("count b", ScriptedReply(text="b"))])
    project = make_project(tmp_path)
    async with ReplayServer(script.responder(), keep_alive=True) as server:
        configure_two_models(project, server.url)
        client = await start(project)
        try:
            events = await client.prompt_and_wait("Count", timeout=60)
            stats = await client.get_session_stats()
        finally:
            await client.close()
    ends = [e for e in events if e.get("type") == "tool_execution_end"]
    assert [e["result"]["details"]["usage"]["input"] for e in ends] == [100, 100]
    # Two parent replies and two children's, 100 input and 20 output tokens each.
    assert (stats["tokens"]["input"], stats["tokens"]["output"]) == (400, 80)
    assert stats["assistantMessages"] == 2  # the children's replies are not the parent's messages


def _todo_responder(lists: list[list[dict[str, str]]]) -> Any:
    """The n-th user prompt is answered with a todo call sending ``lists[n]``, then with text."""

    def respond(request: RecordedRequest, index: int) -> Scripted:
        messages = request.json()["messages"]
        if messages[-1]["role"] == "tool":
            return Scripted(body=sse_body(API, ScriptedReply(text="Listed.")))
        n = sum(1 for m in messages if m["role"] == "user")
        call = ScriptedCall(f"call_todo_{index}", "todo", {"items": lists[n - 1]})
        return Scripted(body=sse_body(API, ScriptedReply(calls=[call])))

    return respond


async def test_todo_updates_reach_the_client_and_follow_the_tree(tmp_path: Path) -> None:
    first = [{"text": "read", "status": "in_progress"}, {"text": "fix", "status": "pending"}]
    second = [{"text": "read", "status": "done"}, {"text": "fix", "status": "in_progress"}]
    project = make_project(tmp_path)
    async with ReplayServer(_todo_responder([first, second]), keep_alive=True) as server:
        configure_two_models(project, server.url)
        client = await start(project)
        try:
            events = await client.prompt_and_wait("Plan", timeout=60)
            end = next(e for e in events if e.get("type") == "tool_execution_end")
            assert end["toolName"] == "todo" and end["result"]["details"] == {"items": first}
            widgets = [e for e in events if e.get("method") == "setWidget"]
            assert widgets[-1]["widgetKey"] == "todo"
            assert widgets[-1]["widgetLines"] == ["[~] read", "[ ] fix"]
            statuses = [e for e in events if e.get("method") == "setStatus"]
            assert statuses[-1]["statusText"] == "todo 0/2"
            events = await client.prompt_and_wait("Go on", timeout=60)
            widgets = [e for e in events if e.get("method") == "setWidget"]
            assert widgets[-1]["widgetLines"] == ["[x] read", "[~] fix"]
            # Back to before the first prompt: no list there, so the widget is cleared.
            await client.navigate_tree(None)
            cleared = await _next_ui(client, "setWidget")
            assert cleared["widgetKey"] == "todo" and "widgetLines" not in cleared
        finally:
            await client.close()


async def _next_ui(client: Any, method: str) -> dict[str, Any]:
    async for event in client.events(timeout=10):
        if event.get("method") == method:
            return dict(event)
    raise AssertionError(f"no {method}")
