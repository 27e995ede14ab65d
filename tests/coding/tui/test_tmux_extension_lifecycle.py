"""An async ``session_before_switch`` handler asking in a real terminal: ``/new`` waits for the
person's answer in the TUI's own dialog, "n" keeps the session and "y" lets it go. Skips
without tmux."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.coding.tui.tmux_session import Tmux, running

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

CONFIRM_LEAVE = Path(__file__).resolve().parents[3] / "examples" / "extensions" / "confirm_leave.py"


def _command(tmux: Tmux, text: str) -> None:
    tmux("send-keys", "-t", "tau", "-l", text)
    tmux.wait_for(text)  # typed text on screen before Enter (app bindings can run first)
    tmux("send-keys", "-t", "tau", "Enter")


def test_an_async_handler_asks_before_new_and_its_answer_decides(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    replies = [ScriptedReply(text="Hello from the model.")]
    with running(tmp_path, project, home, replies, "-e", str(CONFIRM_LEAVE)) as (tmux, _server):
        _command(tmux, "hi")
        tmux.wait_for("Hello from the model.")
        _command(tmux, "/new")
        tmux.wait_for_question("Start a new session?")
        tmux("send-keys", "-t", "tau", "n")
        screen = tmux.wait_for("stayed: start a new session declined")
        assert "Hello from the model." in screen  # the conversation is still there
        _command(tmux, "/new")
        tmux.wait_for_question("Start a new session?")
        tmux("send-keys", "-t", "tau", "y")
        screen = tmux.wait_for("New session started.")
        assert "Hello from the model." not in screen
        tmux("send-keys", "-t", "tau", "C-d")
        tmux.wait_for("TAU-EXITED-0")
