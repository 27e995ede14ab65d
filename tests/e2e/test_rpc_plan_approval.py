"""Plan mode over RPC against the real ``tau --mode rpc``: refining keeps plan mode, and
``approve_plan`` turns the plan's steps into the task list, leaves plan mode and starts the work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.sdk.rpc_client import RpcError
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server

FIRST_PLAN = "Plan:\n1. Read app.py\n2. Set x to 1"
SECOND_PLAN = "Plan:\n1. Read app.py\n2. Set x to 1\n3. Run the tests"


async def test_refine_then_approve_makes_the_steps_the_task_list(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    replies = [
        ScriptedReply(text=FIRST_PLAN),
        ScriptedReply(text=SECOND_PLAN),
        ScriptedReply(text="Working."),
    ]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        tau = await start(project, "--permission-mode", "plan")
        with pytest.raises(RpcError, match="leaves plan mode"):
            await tau.request("approve_plan", mode="plan")
        await tau.prompt_and_wait("make x one")
        await tau.prompt_and_wait("also run the tests")  # refining: a prompt, still in plan mode
        assert (await tau.request("get_permission_mode"))["permissionMode"] == "plan"

        assert await tau.request("approve_plan", mode="accept-edits") == {"permissionMode": "accept-edits"}
        events = await tau.wait_for("agent_settled")
        widgets = [
            e["widgetLines"]
            for e in events
            if e["type"] == "extension_ui_request" and e.get("method") == "setWidget"
        ]
        assert widgets == [["[ ] Read app.py", "[ ] Set x to 1", "[ ] Run the tests"]]
        statuses = [e["statusText"] for e in events if e.get("method") == "setStatus"]
        assert statuses == ["todo 0/3"]
        state = await tau.get_state()
        with pytest.raises(RpcError, match="no plan to approve"):
            await tau.request("approve_plan")
        assert await tau.close() == 0

    system = [json.dumps(r.json()["messages"][0]) for r in srv.requests]
    assert ["# Plan mode" in s for s in system] == [True, True, False]
    last = json.dumps(srv.requests[2].json()["messages"][-1])
    assert "The user approved the plan" in last and "3 steps are the task list" in last
    lines = [json.loads(line) for line in Path(state["sessionFile"]).read_text().splitlines()]
    recorded = [e["data"] for e in lines if e.get("type") == "custom" and e.get("customType") == "tau.todo"]
    assert recorded == [
        {"items": [{"text": t, "status": "pending"} for t in ("Read app.py", "Set x to 1", "Run the tests")]}
    ]
