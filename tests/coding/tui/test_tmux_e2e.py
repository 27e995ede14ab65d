"""``tau`` in a real terminal (tmux) against a local model server: type a prompt, watch the
answer stream, see a tool run, quit, and resume the session. Skips without tmux.

``scripts/test`` installs tmux when it is missing (Debian: ``apt-get install -y tmux``).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.tui.tmux_session import API, Tmux, launch, point_at

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_tau_in_a_terminal_answers_runs_a_tool_quits_and_resumes(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / "config.py").write_text("PORT = 9090\n")
    replies = [
        ScriptedReply(
            text="Let me look.", calls=[ScriptedCall("call_000000001", "read", {"path": "config.py"})]
        ),
        ScriptedReply(chunks=("The port ", "is 9090.")),
        ScriptedReply(text="Still 9090."),
    ]
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)

        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux.wait_for_app()
            tmux("send-keys", "-t", "tau", "-l", "Which port?")
            tmux("send-keys", "-t", "tau", "Enter")
            screen = tmux.wait_for("The port is 9090.")
            assert "read" in screen  # the tool row
            tmux("send-keys", "-t", "tau", "C-d")
            screen = tmux.wait_for("TAU-EXITED-0")
            assert "Resume this session with: tau --session" in screen
            session_id = screen.split("tau --session ", 1)[1].split()[0]
        finally:
            tmux.kill()

        tmux = Tmux(tmp_path / "tmux2.sock")
        launch(tmux, project, home, "--model", "local/m", "--session", session_id)
        try:
            screen = tmux.wait_for("The port is 9090.")  # the earlier conversation is shown again
            tmux("send-keys", "-t", "tau", "-l", "And now?")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("Still 9090.")
            tmux("send-keys", "-t", "tau", "C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()
        third = server.requests[2].json()["messages"]
        assert "Which port?" in json.dumps(third)


def test_tau_resume_opens_the_picker_and_a_remapped_key_runs_the_editor_in_the_terminal(
    tmp_path: Path,
) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nprintf " from the editor" >> "$1"\n')
    editor.chmod(0o755)
    replies = [ScriptedReply(text="First answer."), ScriptedReply(text="Second answer.")]
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)

        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux.wait_for_app()
            assert tmux("display", "-p", "-t", "tau", "#{pane_title}").strip() == f"tau — {project}"
            tmux("send-keys", "-t", "tau", "-l", "A remembered question")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("First answer.")
            tmux("send-keys", "-t", "tau", "C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()

        # The mode reads TAU_HOME's keybindings.json and themes/ (a bad theme is reported, not fatal).
        (home / ".tau" / "keybindings.json").write_text(json.dumps({"external_editor": "ctrl+e"}))
        (home / ".tau" / "themes").mkdir()
        (home / ".tau" / "themes" / "broken.json").write_text("{")
        tmux = Tmux(tmp_path / "tmux2.sock")
        launch(tmux, project, home, "--model", "local/m", "-r", env={"VISUAL": str(editor)})
        try:
            tmux.wait_for("Resume a session (this project)")
            tmux.wait_for("A remembered question")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("First answer.")
            tmux.wait_for("broken.json: invalid")  # the full line wraps at this width
            tmux("send-keys", "-t", "tau", "-l", "draft")
            tmux.wait_for("│ draft")  # in the editor before the key that hands it to $VISUAL
            tmux("send-keys", "-t", "tau", "C-e")
            tmux.wait_for("draft from the editor")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("Second answer.")
            tmux("send-keys", "-t", "tau", "C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()
        second = json.dumps(server.requests[1].json()["messages"])
        assert "A remembered question" in second and "draft from the editor" in second


def test_an_extensions_confirm_dialog_is_answered_in_the_terminal(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / "build").mkdir(parents=True)
    (project / "build" / "out.o").write_text("x")
    gate = Path(__file__).resolve().parents[3] / "examples" / "extensions" / "permission_gate.py"
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "bash", {"command": "rm -rf build"})]),
        ScriptedReply(text="Cleaned up."),
    ]
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m", "-e", str(gate), "--permission-mode", "yolo")
        try:
            tmux.wait_for_app()
            tmux("send-keys", "-t", "tau", "-l", "clean the build")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for_question("Dangerous command")
            tmux("send-keys", "-t", "tau", "y")
            tmux.wait_for("Cleaned up.")
        finally:
            tmux.kill()
    assert not (project / "build").exists()


def test_keys_typed_before_the_tui_is_ready_are_kept_and_enter_sends_them(tmp_path: Path) -> None:
    """Type-ahead: a prompt and Enter sent the moment tau starts (before its first paint) are
    neither lost nor turned into a new line: the prompt is sent. Then text typed ahead without
    Enter waits in the editor."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    replies = [ScriptedReply(text="Port 9090, as asked."), ScriptedReply(text="Unused.")]
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux("send-keys", "-t", "tau", "-l", "Which port?")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("Port 9090, as asked.")
            assert len(server.requests) == 1
            sent = server.requests[0].json()["messages"][-1]
            assert sent["role"] == "user" and "Which port?" in json.dumps(sent["content"])
            tmux("send-keys", "-t", "tau", "C-d")
            assert "TTY-RESTORED" in tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()

        tmux = Tmux(tmp_path / "tmux2.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux("send-keys", "-t", "tau", "-l", "draft to finish")
            screen = tmux.wait_for("draft to finish")
            time.sleep(0.5)  # nothing is sent without an Enter
            assert len(server.requests) == 1, screen
        finally:
            tmux.kill()
