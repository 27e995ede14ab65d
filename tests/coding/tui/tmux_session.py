"""``tau`` in a real terminal for tests: a tmux server of the test's own, a home whose Tau
has one model (``local/m``) served by a local scripted server, and the launch line that
records how tau exited and whether it left the terminal's modes as it found them.

``scripts/test`` installs tmux when it is missing (Debian: ``apt-get install -y tmux``).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tau_coding.tui.key_guard import HOLD_SECONDS

API = "openai-completions"


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

    def wait_for_question(self, text: str, timeout: float = 20.0) -> str:
        """Until ``text`` (a dialog's) shows, then as long as a person's pause: keys sent sooner
        would be held back from the question as typed for the editor (tui/key_guard.py)."""
        shown = self.wait_for(text, timeout)
        time.sleep(HOLD_SECONDS + 0.1)
        return shown

    def wait_for_app(self, timeout: float = 20.0) -> str:
        """Until the app's first frame shows: the editor's placeholder with the footer's second
        line under it. Inline, an early frame drawn before the app is imported shows the box and
        the footer's first line only (modes/interactive/early_frame.py); keys other than text and
        Backspace typed then wait for the app, which handles them as keys typed once it is up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.screen()
            rows = shown.splitlines()
            at = next((i for i, row in enumerate(rows) if "Ask anything" in row), None)
            if at is not None and at + 3 < len(rows) and rows[at + 3].strip():
                return shown
            time.sleep(0.05)
        raise AssertionError(f"the app never showed its editor; the screen was:\n{self.screen()}")

    def kill(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=10)


def point_at(home: Path, url: str) -> None:
    """Give ``home``'s Tau one model, ``local/m``, served by the local scripted server at ``url``."""
    (home / ".tau").mkdir(parents=True)
    provider = {"baseUrl": url, "api": API, "apiKey": "k", "models": [{"id": "m"}]}
    (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))


def launch(tmux: Tmux, project: Path, home: Path, *args: str, env: dict[str, str] | None = None) -> None:
    env = {
        "HOME": str(home),
        "TAU_HOME": str(home / ".tau"),
        "PATH": os.environ.get("PATH", ""),
        "TERM": "xterm-256color",
        **(env or {}),
    }
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    tau = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "tau_coding", *args])
    # After the exit: whether tau left the terminal's modes as it found them.
    tty = 'before=$(stty -g); {}; code=$?; [ "$(stty -g)" = "$before" ] && echo TTY-RESTORED'
    command = tty.format(f"cd {shlex.quote(str(project))} && env -i {exports} {tau}")
    command += "; echo TAU-EXITED-$code; sleep 30"
    tmux("new-session", "-d", "-s", "tau", "-x", "110", "-y", "32", command)


@contextmanager
def running(
    tmp_path: Path, project: Path, home: Path, replies: list[ScriptedReply], *args: str
) -> Iterator[tuple[Tmux, ReplayServerThread]]:
    """``tau --model local/m *args`` in tmux against a server answering ``replies``, once its
    editor shows; the tmux server is killed on the way out."""
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m", *args)
        try:
            tmux.wait_for_app()
            yield tmux, server
        finally:
            tmux.kill()
