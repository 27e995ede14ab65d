"""The TUI's frame rate (modes/interactive/frame_rate.py): Textual draws on a 240-a-second grid
unless the user set ``TEXTUAL_FPS``, the variable does not reach the commands Tau runs, and the
real ``tau`` sets it before anything imports Textual.

Textual reads the variable once per process, so each case runs in a fresh interpreter. These
fail if Textual stops reading ``TEXTUAL_FPS`` or stops deriving its screen's update period
from it (textual.constants.MAX_FPS, textual.screen.UPDATE_PERIOD).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tau_coding.modes.interactive.frame_rate import FRAME_RATE
from tests.coding.tui.pty_terminal import PtyTerminal

REPORT = """
import json, os, sys
{before}
from tau_coding.modes.interactive.frame_rate import use_frame_rate
used = use_frame_rate()
from textual import constants, screen
print(json.dumps([used, constants.MAX_FPS, screen.UPDATE_PERIOD, os.environ.get("TEXTUAL_FPS")]))
"""


def _report(env: dict[str, str], before: str = "") -> list[object]:
    done = subprocess.run(
        [sys.executable, "-c", REPORT.format(before=before)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    report: list[object] = json.loads(done.stdout)
    return report


def _environment(**more: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "TEXTUAL_FPS"}
    return {**env, **more}


def test_textual_draws_at_the_tui_rate_and_the_variable_is_taken_out_again() -> None:
    used, max_fps, period, left = _report(_environment())
    assert used == max_fps == FRAME_RATE == 240
    assert period == 1 / FRAME_RATE  # the screen's update timer: a refresh waits at most this
    assert left is None  # the commands Tau runs do not inherit it


def test_a_rate_the_user_set_wins() -> None:
    assert _report(_environment(TEXTUAL_FPS="50")) == [50, 50, 1 / 50, "50"]


def test_after_textual_is_imported_the_rate_it_read_stands() -> None:
    used, max_fps, _, left = _report(_environment(), before="import textual.constants")
    assert used == max_fps == 60 and left is None


def test_the_tau_command_sets_the_rate_before_textual_is_imported(tmp_path: Path) -> None:
    """The real entry, on a terminal: the process's Textual uses the TUI's rate, and a shell
    command run from the TUI does not see the variable."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (home / ".tau").mkdir(parents=True)
    seen = tmp_path / "rate"
    with ReplayServerThread(
        [Scripted(body=sse_body("openai-completions", ScriptedReply(chunks=("hi",))))]
    ) as server:
        provider = {
            "baseUrl": server.url,
            "api": "openai-completions",
            "apiKey": "k",
            "models": [{"id": "m"}],
        }
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        at_exit = (
            "import atexit, sys; from pathlib import Path; "
            f"atexit.register(lambda: Path({str(seen)!r}).write_text("
            "str(sys.modules['textual.constants'].MAX_FPS))); "
            "from tau_coding.app.cli import main; sys.exit(main())"
        )
        env = {"HOME": str(home), "TAU_HOME": str(home / ".tau"), "PATH": os.environ.get("PATH", "")}
        term = PtyTerminal(
            [sys.executable, "-c", at_exit, "--model", "local/m"], {**env, "TERM": "xterm-256color"}, project
        )
        try:
            term.wait_for(b"Ask anything")
            term.write(b"!echo fps=${TEXTUAL_FPS:-unset}\r")
            term.wait_for(b"fps=unset")
        finally:
            term.close(b"\x04")  # Ctrl+D on the empty editor: quit
    assert seen.read_text() == str(FRAME_RATE)
