"""``tau`` in a real terminal (tmux): the task list panel above the editor and its footer count,
a running task row that expands (Ctrl+O) to follow the child live, and the list restored when
the session is resumed. Skips without tmux."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.tui.tmux_session import API, Tmux, launch, point_at

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ITEMS = [
    {"text": "survey the parser", "status": "in_progress"},
    {"text": "write the fix", "status": "pending"},
]


def _respond(request: RecordedRequest, index: int) -> Scripted:
    messages = request.json()["messages"]
    if "You run as a subagent" in json.dumps(messages[0]):
        if messages[-1]["role"] == "tool":  # the child's second reply comes late: time to watch it
            body = sse_body(API, ScriptedReply(text="child report: parser is fine"))
            return Scripted(body=body, split_at=(1,), delay=4.0)
        call = ScriptedCall("c_ls", "ls", {"path": "."})
        return Scripted(body=sse_body(API, ScriptedReply(text="Looking at the tree.", calls=[call])))
    if messages[-1]["role"] == "tool":
        return Scripted(body=sse_body(API, ScriptedReply(text="Survey finished.")))
    calls = [
        ScriptedCall("call_todo", "todo", {"items": ITEMS}),
        ScriptedCall("call_task", "task", {"description": "survey parser", "prompt": "Survey the parser."}),
    ]
    return Scripted(body=sse_body(API, ScriptedReply(calls=calls)))


def test_task_list_panel_and_a_task_row_followed_live(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    with ReplayServerThread(_respond, keep_alive=True) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux.wait_for_app()
            tmux("send-keys", "-t", "tau", "-l", "Survey the parser")
            tmux.wait_for("Survey the parser")
            tmux("send-keys", "-t", "tau", "Enter")
            screen = tmux.wait_for("[~] survey the parser", timeout=60)
            assert "[ ] write the fix" in screen
            tmux.wait_for("todo 0/2")
            tmux("send-keys", "-t", "tau", "C-o")  # expand tool rows: the child's transcript, live
            tmux.wait_for("→ ls", timeout=60)
            # Inline, the row's header may be drawn a frame after the child's lines.
            tmux.wait_for("[general-purpose] running", timeout=10)
            screen = tmux.wait_for("Survey finished.", timeout=60)
            assert "child report: parser is fine" in screen
            tmux("send-keys", "-t", "tau", "C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()
        # Resumed, the list on the session's path is shown again before anything else happens.
        tmux = Tmux(tmp_path / "tmux2.sock")
        launch(tmux, project, home, "--model", "local/m", "-c")
        try:
            tmux.wait_for("[~] survey the parser", timeout=60)
            tmux.wait_for("todo 0/2")
            tmux("send-keys", "-t", "tau", "C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()
