"""In a real terminal: escape sequences in a file and in the model's text do not reach tmux;
SIGTERM and SIGHUP leave no command running."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.coding.tui.tmux_session import Tmux, running

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_a_file_and_a_reply_with_title_sequences_leave_the_pane_title_alone(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / "notes.txt").write_text("before\x1b]2;PWNED-BY-FILE\x07after\x1b]2;ALSO-FILE\x1b\\end\n")
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "read", {"path": "notes.txt"})]),
        ScriptedReply(text="Done reading.\x1b]2;PWNED-BY-MODEL\x07 All clear."),
    ]
    with running(tmp_path, project, home, replies) as (tmux, _server):
        tmux("send-keys", "-t", "tau", "-l", "Read the notes")
        tmux("send-keys", "-t", "tau", "Enter")
        screen = tmux.wait_for("All clear.")
        assert "beforeafterend" in screen  # the file's text is shown, its sequences are not
        # Only Tau sets the title: the session's automatic title, made from the prompt.
        deadline = time.monotonic() + 10
        while (title := tmux("display", "-p", "-t", "tau", "#{pane_title}").strip()) != (
            "tau — Read the notes"
        ) and time.monotonic() < deadline:
            assert "PWNED" not in title and "ALSO" not in title, title
            time.sleep(0.1)
        assert title == "tau — Read the notes"
        tmux("send-keys", "-t", "tau", "C-d")
        tmux.wait_for("TAU-EXITED-0")


def _tau_pid(tmux: Tmux) -> int:
    shell = int(tmux("display", "-p", "-t", "tau", "#{pane_pid}").strip())
    children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    (env_or_tau,) = children
    return int(env_or_tau)


def _alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_an_exit_signal_to_the_tui_kills_the_running_command_and_its_children(
    tmp_path: Path, signum: int
) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    command = "sleep 300 & echo $! > child.pid; sleep 300"
    replies = [ScriptedReply(calls=[ScriptedCall("call_000000001", "bash", {"command": command})])]
    with running(tmp_path, project, home, replies, "--permission-mode", "yolo") as (tmux, _server):
        tmux("send-keys", "-t", "tau", "-l", "Run it")
        tmux("send-keys", "-t", "tau", "Enter")
        deadline = time.monotonic() + 20
        while not (project / "child.pid").exists() or not (project / "child.pid").read_text():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        child = int((project / "child.pid").read_text())
        os.kill(_tau_pid(tmux), signum)
        tmux.wait_for("TAU-EXITED-")
        deadline = time.monotonic() + 5
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the command's background child survived"
