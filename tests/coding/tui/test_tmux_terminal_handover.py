"""The terminal handed to another program and back, in a real terminal (tmux): $EDITOR from the
default inline mode, and Ctrl+Z to the shell then ``fg``. Skips without tmux."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.coding.tui.tmux_session import API, Tmux, launch, point_at

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_an_editor_that_reads_the_terminal_gets_the_keys_in_inline_mode(tmp_path: Path) -> None:
    """Found in real use: with vi as $EDITOR, Ctrl+G in inline mode (the default) left Textual
    reading the keys too; what was typed for vi reached the prompt, and Enter sent it."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    editor = tmp_path / "editor.sh"
    editor.write_text(
        '#!/bin/sh\nprintf "EDITOR-ASKS> "\nread line </dev/tty\nprintf " %s" "$line" >> "$1"\n'
    )
    editor.chmod(0o755)
    with ReplayServerThread([Scripted(body=sse_body(API, ScriptedReply(text="Answered.")))]) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m", env={"VISUAL": str(editor)})
        try:
            tmux.wait_for("local/m")  # the session is open: Tau's own keys work from here
            tmux("send-keys", "-t", "tau", "-l", "draft")
            tmux.wait_for("│ draft")
            tmux("send-keys", "-t", "tau", "C-g")
            tmux.wait_for("EDITOR-ASKS>")
            tmux("send-keys", "-t", "tau", "-l", "typed for the editor")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("│ draft typed for the editor")  # (its line in the shell's modes: echoed)
            assert server.requests == []  # nothing reached the model: the keys were the editor's
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("Answered.")
        finally:
            tmux.kill()


def test_ctrl_z_gives_the_terminal_to_the_shell_and_fg_brings_tau_back(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    point_at(home, "http://127.0.0.1:9")  # nothing is sent
    env = {
        "HOME": str(home),
        "TAU_HOME": str(home / ".tau"),
        "PATH": os.environ.get("PATH", ""),
        "TERM": "xterm-256color",
        "PS1": "SHELL> ",
    }
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    tmux = Tmux(tmp_path / "tmux.sock")
    shell = f"cd {shlex.quote(str(project))} && env -i {exports} bash --norc --noprofile -i"
    tmux("new-session", "-d", "-s", "tau", "-x", "110", "-y", "32", shell)
    try:
        tmux.wait_for("SHELL>")
        tau = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "tau_coding", "--model", "local/m"])
        tmux("send-keys", "-t", "tau", "-l", tau)
        tmux("send-keys", "-t", "tau", "Enter")
        tmux.wait_for_app()
        tmux("send-keys", "-t", "tau", "-l", "kept draft")
        tmux.wait_for("│ kept draft")
        tmux("send-keys", "-t", "tau", "C-z")
        screen = tmux.wait_for("Stopped")
        assert "│ kept draft" not in screen  # the live region went; the shell has the terminal
        tmux("send-keys", "-t", "tau", "-l", "echo IN-THE-SHELL")
        tmux("send-keys", "-t", "tau", "Enter")
        tmux.wait_for("IN-THE-SHELL\n")
        tmux("send-keys", "-t", "tau", "-l", "fg")
        tmux("send-keys", "-t", "tau", "Enter")
        tmux.wait_for("│ kept draft")
        tmux("send-keys", "-t", "tau", "-l", " and more")  # the keys are Tau's again
        tmux.wait_for("│ kept draft and more")
    finally:
        tmux.kill()
