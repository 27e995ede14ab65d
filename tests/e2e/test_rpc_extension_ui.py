"""An extension's dialog in RPC mode reaches the client as an extension_ui_request, and the
client's answer decides: the permission gate example lets a dangerous command run only when the
client confirms it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.rpc_project import configure_two_models, make_project, start
from tests.e2e.scripted_project import server

GATE = str(Path(__file__).resolve().parents[2] / "examples" / "extensions" / "permission_gate.py")


@pytest.mark.parametrize("confirmed", [True, False])
async def test_permission_gate_asks_the_rpc_client(tmp_path: Path, confirmed: bool) -> None:
    project = make_project(tmp_path)
    victim = project.root / "build"
    victim.mkdir()
    (victim / "out.o").write_text("x")
    call = ScriptedCall("call_000000001", "bash", {"command": "rm -rf build"})
    async with server(
        "openai-completions", [ScriptedReply(calls=[call]), ScriptedReply(text="Done.")]
    ) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", GATE, "--permission-mode", "yolo")  # the extension decides
        try:
            await tau.prompt("clean up")
            request = await _next_ui_request(tau)
            assert request["method"] == "confirm" and "rm -rf build" in request["message"]
            await tau.send({"type": "extension_ui_response", "id": request["id"], "confirmed": confirmed})
            await tau.wait_for("agent_settled")
        finally:
            assert await tau.close() == 0
    assert victim.exists() is not confirmed


async def _next_ui_request(tau: RpcClient) -> dict[str, Any]:
    for _ in range(200):
        event = await tau.next_event()
        if event.get("type") == "extension_ui_request" and event.get("method") == "confirm":
            return event
    raise AssertionError("no confirm request arrived")
