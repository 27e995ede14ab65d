"""``tau`` in a real terminal (tmux) with an MCP server: the model calls its tool, ``/mcp``
shows the server ready with its tools, and ``@`` completes the server's resources as
``@server:uri``, whose contents go with the prompt. Skips without tmux."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.mcp.conftest import TOOL_SERVER
from tests.coding.tui.tmux_session import API, Tmux, launch, point_at

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_mcp_tool_and_slash_mcp_in_the_terminal(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "mcp__srv__echo", {"text": "from-the-server"})]),
        ScriptedReply(text="Echo done."),
        ScriptedReply(text="Notes read."),
    ]
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)
        settings = {
            "mcpServers": {"srv": {"command": sys.executable, "args": [TOOL_SERVER]}},
            "permissions": {"allow": ["mcp__srv"]},
        }
        (home / ".tau" / "settings.json").write_text(json.dumps(settings))
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux.wait_for_app()
            tmux("send-keys", "-t", "tau", "-l", "Echo something")
            tmux("send-keys", "-t", "tau", "Enter")
            screen = tmux.wait_for("Echo done.", timeout=60)
            assert "from-the-server" in screen
            tmux("send-keys", "-t", "tau", "-l", "/mcp")
            tmux.wait_for("│ /mcp ")  # in the editor before Enter (keys and bindings race under load)
            tmux("send-keys", "-t", "tau", "Enter")
            screen = tmux.wait_for("srv (stdio): ready")
            assert "every_content" in screen
            tmux("send-keys", "-t", "tau", "-l", "Summarize @srv:tod")
            tmux.wait_for("@srv:notes://today")  # the completion menu offers the resource
            tmux("send-keys", "-t", "tau", "Tab")
            tmux.wait_for("Summarize @srv:notes://today ")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("Notes read.", timeout=60)
            tmux("send-keys", "-t", "tau", "C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()
        assert "from-the-server" in json.dumps(server.requests[1].json()["messages"])
        sent = json.dumps(server.requests[2].json()["messages"][-1])
        assert "Summarize @srv:notes://today" in sent and "Ship the MCP client." in sent
