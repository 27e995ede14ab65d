"""``tau --mode rpc`` with a real stdio MCP server (the SDK's MCPServer in tests/coding/mcp/servers):
a tool call through MCP, the servers' status and per-session enablement over RPC, and ``abort``
mid-call reaching the server as ``notifications/cancelled``."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bench.bench_cli import tau_executable
from bench.tau_project import MODEL, TauProject

from tau_ai.testing.replay_server import RecordedRequest, ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tau_coding.sdk.rpc_client import RpcClient

API = "openai-completions"
TOOL_SERVER = Path(__file__).resolve().parents[1] / "coding" / "mcp" / "servers" / "tool_server.py"
REPLIES = [
    ScriptedReply(calls=[ScriptedCall("call_1", "mcp__srv__echo", {"text": "over rpc", "times": 2})]),
    ScriptedReply(text="It echoed."),
    ScriptedReply(text="Without the server."),
    ScriptedReply(calls=[ScriptedCall("call_2", "mcp__srv__slow", {"seconds": 60})]),
    ScriptedReply(text="Stopped."),
]


def _tools(request: RecordedRequest) -> list[str]:
    return [t["function"]["name"] for t in request.json().get("tools", [])]


def _tool_messages(request: RecordedRequest) -> str:
    return json.dumps([m for m in request.json()["messages"] if m["role"] == "tool"])


async def test_mcp_over_rpc_call_status_enablement_and_cancel(tmp_path: Path) -> None:
    log = tmp_path / "server.log"

    def respond(request: RecordedRequest, index: int) -> Scripted:
        return Scripted(body=sse_body(API, REPLIES[min(index, len(REPLIES) - 1)]))

    settings: dict[str, Any] = {
        "mcpServers": {
            "srv": {
                "command": sys.executable,
                "args": [str(TOOL_SERVER)],
                "env": {"MCP_FIXTURE_LOG": str(log)},
            }
        },
        "mcp": {"startupTimeoutMs": 90000},
    }
    async with ReplayServer(respond, keep_alive=True) as server:
        project = TauProject.create(tmp_path, API, server.url, settings=settings)
        client = await RpcClient.start(
            ["--model", MODEL, "--permission-mode", "yolo"],
            cwd=project.root,
            env=project.env(),
            command=tau_executable(),
        )
        try:
            await client.prompt_and_wait("echo it", timeout=120)
            assert "mcp__srv__echo" in _tools(server.requests[0])
            assert "over rpc over rpc" in _tool_messages(server.requests[1])

            status = (await client.request("get_mcp_status"))["servers"]
            assert [(s["name"], s["transport"], s["state"], s["enabled"]) for s in status] == [
                ("srv", "stdio", "ready", True)
            ]
            assert "mcp__srv__echo" in status[0]["tools"] and status[0]["error"] is None

            assert await client.request("mcp_set_enabled", server="srv", enabled=False) == {
                "server": "srv",
                "enabled": False,
            }
            await client.prompt_and_wait("now without", timeout=60)
            assert not [n for n in _tools(server.requests[2]) if n.startswith("mcp__")]
            await client.request("mcp_set_enabled", server="srv", enabled=True)
            unknown = await client.request_response("mcp_restart", server="nope")
            assert not unknown["success"] and "no MCP server named 'nope'" in unknown["error"]

            await client.prompt("sleep on the server")
            async for event in client.events(timeout=60):
                if event.get("type") == "tool_execution_start" and event.get("toolName") == "mcp__srv__slow":
                    break
            await asyncio.sleep(1.0)  # the request is on the server
            await client.abort()
            await client.wait_for("agent_settled", 60)
            for _ in range(100):
                if log.exists() and "cancelled" in log.read_text():
                    break
                await asyncio.sleep(0.1)
            assert log.read_text() == "cancelled\n"
            status = (await client.request("get_mcp_status"))["servers"]
            assert status[0]["state"] == "ready"  # the server lives on

            # (What a restart does is tested in tests/coding/mcp/test_restart.py.)
            assert await client.request("mcp_restart", server="srv") == {"server": "srv", "restarting": True}
        finally:
            await client.close()
