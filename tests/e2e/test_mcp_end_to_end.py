"""``tau -p`` with MCP servers, as a subprocess against the local scripted model server.

The servers are real (the SDK's MCPServer in tests/coding/mcp/servers) and run over stdio; the
scripted model calls their tools, and the next request must carry what the server answered.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

SERVERS = Path(__file__).resolve().parents[1] / "coding" / "mcp" / "servers"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", "openai-completions")


def _settings(project: Project, servers: dict[str, object], **extra: object) -> None:
    project.tau_home.mkdir(parents=True, exist_ok=True)
    allow = {"permissions": {"allow": [f"mcp__{name}" for name in servers]}}  # their tools run unasked
    (project.tau_home / "settings.json").write_text(json.dumps({"mcpServers": servers, **allow, **extra}))


def _stdio(*args: str) -> dict[str, object]:
    return {"command": sys.executable, "args": [*args]}


def _tool_results(request_body: object) -> str:
    messages = request_body["messages"]  # type: ignore[index]
    return json.dumps([m for m in messages if m.get("role") == "tool"])


async def test_model_calls_an_mcp_tool_and_gets_its_answer(project: Project) -> None:
    _settings(project, {"srv": _stdio(str(SERVERS / "tool_server.py"))})
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "mcp__srv__echo", {"text": "ping", "times": 2})]),
        ScriptedReply(text="The server said ping ping."),
    ]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "echo ping twice")
        assert result.code == 0, result.stderr
        assert result.stdout == "The server said ping ping.\n"
        first = srv.requests[0].json()
        offered = {t["function"]["name"]: t["function"] for t in first["tools"]}
        assert offered["mcp__srv__echo"]["parameters"]["required"] == ["text"]
        assert "ping ping" in _tool_results(srv.requests[1].json())


async def test_mcp_tool_arguments_are_validated_against_the_servers_schema(project: Project) -> None:
    _settings(project, {"srv": _stdio(str(SERVERS / "tool_server.py"))})
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "mcp__srv__echo", {"times": 2})]),
        ScriptedReply(text="I forgot the text."),
    ]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "echo")
        assert result.code == 0, result.stderr
        sent = _tool_results(srv.requests[1].json())
        assert "text" in sent and "ping" not in sent


async def test_a_server_that_fails_is_one_line_and_the_run_goes_on(project: Project) -> None:
    _settings(
        project,
        {
            "broken": _stdio(str(SERVERS / "broken_server.py"), "crash"),
            "mute": _stdio(str(SERVERS / "broken_server.py"), "mute"),
        },
        mcp={"startupTimeoutMs": 8000, "connectTimeoutMs": 60000},
    )
    async with server(project.api, [ScriptedReply(text="fine without them")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "hello")
        assert result.code == 0, result.stderr
        assert result.stdout == "fine without them\n"
        lines = [line for line in result.stderr.splitlines() if "MCP server broken" in line]
        assert len(lines) == 1 and "cannot open the database" in lines[0]
        assert "going on without mute" in result.stderr
        assert "mcp__" not in json.dumps(srv.requests[0].json().get("tools", []))


async def test_project_mcp_json_is_used_only_in_a_trusted_project(project: Project) -> None:
    (project.root / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"proj": _stdio(str(SERVERS / "tool_server.py"))}})
    )
    async with server(project.api, [ScriptedReply(text="one"), ScriptedReply(text="two")]) as srv:
        project.configure(srv.url)
        untrusted = await project.tau("-p", "--model", MODEL, "hi")
        assert untrusted.code == 0, untrusted.stderr
        assert "not trusted" in untrusted.stderr
        assert "mcp__proj" not in json.dumps(srv.requests[0].json().get("tools", []))
        trusted = await project.tau("-p", "--trust-project", "--model", MODEL, "hi")
        assert trusted.code == 0, trusted.stderr
        assert "mcp__proj__echo" in json.dumps(srv.requests[1].json()["tools"])
