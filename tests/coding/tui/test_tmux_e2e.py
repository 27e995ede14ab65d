"""``tau`` in a real terminal (tmux): type a prompt, see the answer, quit. Skips without tmux.

CI needs tmux installed (Debian: ``apt-get install -y tmux``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Tmux:
    def __init__(self, socket: Path) -> None:
        self.socket = str(socket)

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=10, check=True
        )
        return done.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "tau")

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")


def test_tau_in_a_terminal_answers_and_quits_on_ctrl_d(tmp_path: Path) -> None:
    tmux = Tmux(tmp_path / "tmux.sock")
    command = f"cd {tmp_path} && {sys.executable} -m tau_coding; echo TAU-EXITED-$?; sleep 30"
    tmux("new-session", "-d", "-s", "tau", "-x", "100", "-y", "30", command)
    try:
        tmux.wait_for("Ask anything")
        tmux("send-keys", "-t", "tau", "-l", "hello from tmux")
        tmux("send-keys", "-t", "tau", "Enter")
        tmux.wait_for("You asked: hello from tmux")
        tmux("send-keys", "-t", "tau", "C-d")
        tmux.wait_for("TAU-EXITED-0")
    finally:
        subprocess.run(["tmux", "-S", tmux.socket, "kill-server"], capture_output=True, timeout=10)
