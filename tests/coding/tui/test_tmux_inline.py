"""Inline mode (the default) in a real terminal (tmux): the conversation goes into the terminal's
scrollback as it completes and is all still there after Tau exits; typing, an approval dialog,
Esc mid-stream, a resize and a theme switch work on the way. Skips without tmux."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.tui.test_tmux_keys_and_paste import Rig, tau
from tests.coding.tui.tmux_session import API

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _reply(reply: ScriptedReply) -> Scripted:
    return Scripted(body=sse_body(API, reply))


def _prompt(rig: Rig, text: str) -> None:
    rig.type(text)
    rig.wait_editor(text)
    rig.keys("Enter")


def _history(rig: Rig) -> str:
    """Everything the pane holds: its scrollback and the screen."""
    return rig.tmux("capture-pane", "-p", "-t", "tau", "-S", "-")


def _in_order(text: str, parts: list[str]) -> None:
    at = 0
    for part in parts:
        found = text.find(part, at)
        assert found >= 0, f"{part!r} missing after position {at}:\n{text}"
        at = found + len(part)


def test_after_an_inline_session_exits_the_scrollback_holds_the_whole_conversation(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "config.py").write_text("PORT = 9090\n")
    long_answer = "\n".join(f"answer line {i:02d}" for i in range(60))  # taller than the terminal
    slow = sse_body(API, ScriptedReply(chunks=tuple(f"streaming {i} " for i in range(60))))
    replies = [
        _reply(
            ScriptedReply(
                text="Let me look.", calls=[ScriptedCall("call_000000001", "read", {"path": "config.py"})]
            )
        ),
        _reply(ScriptedReply(text="The port is 9090.")),
        _reply(
            ScriptedReply(calls=[ScriptedCall("call_000000002", "bash", {"command": "echo approved-run"})])
        ),
        _reply(ScriptedReply(text="The command ran.")),
        _reply(ScriptedReply(text=long_answer)),
        Scripted(body=slow, chunk_size=max(1, len(slow) // 60), delay=0.1),
    ]
    with tau(tmp_path, replies) as rig:
        _prompt(rig, "Which port?")
        rig.tmux.wait_for("The port is 9090.")
        _prompt(rig, "Run the command")
        rig.tmux.wait_for_question("Yes, once")  # the approval dialog, drawn in the live region
        rig.keys("Enter")
        rig.tmux.wait_for("The command ran.")
        rig.tmux("resize-window", "-t", "tau", "-x", "90", "-y", "24")
        rig.tmux.wait_for_app()  # the live region is drawn again at the new width
        _prompt(rig, "Tell me a long story")
        rig.tmux.wait_for("answer line 59")
        _prompt(rig, "/theme light")
        time.sleep(0.3)
        _prompt(rig, "Stream slowly")
        rig.tmux.wait_for("streaming 3")
        rig.keys("Escape")
        rig.tmux.wait_for("Cancelled.")
        _prompt(rig, "typed after the cancel")  # the editor still takes keys
        rig.keys("C-u")
        rig.keys("C-d")
        rig.tmux.wait_for("TAU-EXITED-0")
        history = _history(rig)
    _in_order(
        history,
        [
            "Which port?",
            "Let me look.",
            "✓ read config.py",
            "PORT = 9090",
            "The port is 9090.",
            "Run the command",
            "✓ bash $ echo approved-run",
            "approved-run",
            "The command ran.",
            "Tell me a long story",
            *(f"answer line {i:02d}" for i in range(60)),
            "Stream slowly",
            "streaming 0 streaming 1",
            "Cancelled.",
            "Resume this session with: tau --session",
        ],
    )
    # On exit the live region (editor, footer) is gone, not left behind, nor a copy of it from
    # before the resize (test_tmux_inline_redraw.py).
    assert "Ask anything" not in history, history
    assert history.count("The port is 9090.") == 1  # each item written once


@pytest.mark.parametrize("how", ["flag", "setting"])
def test_fullscreen_by_flag_or_setting_keeps_the_whole_screen_app(tmp_path: Path, how: str) -> None:
    args = ["--fullscreen"] if how == "flag" else []
    if how == "setting":  # a project's settings.json, as a user's would be read
        (tmp_path / "project" / ".tau").mkdir(parents=True)
        (tmp_path / "project" / ".tau" / "settings.json").write_text('{"tui": {"fullscreen": true}}')
    with tau(tmp_path, [_reply(ScriptedReply(text="Full answer."))], *args) as rig:
        rows = rig.tmux.screen().splitlines()
        assert any("Ask anything" in row for row in rows[-6:])  # the editor docked at the bottom
        _prompt(rig, "Hello")
        rig.tmux.wait_for("Full answer.")
        rig.keys("C-d")
        rig.tmux.wait_for("TAU-EXITED-0")
        assert "Full answer." not in _history(rig)  # the alternate screen took it away


def test_an_answer_keeps_its_columns_and_wrapping_when_it_moves_into_the_scrollback(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    words = [f"word{i:02d} " for i in range(40)] + ["END-OF-ANSWER"]  # wraps at the terminal's width
    slow = sse_body(API, ScriptedReply(chunks=tuple(words)))
    with tau(tmp_path, [Scripted(body=slow, chunk_size=max(1, len(slow) // 40), delay=0.08)]) as rig:
        _prompt(rig, "Say the words")
        rig.tmux.wait_for("word30")
        live = [line for line in rig.tmux("capture-pane", "-p", "-t", "tau").split("\n") if "word" in line]
        rig.tmux.wait_for("END-OF-ANSWER")
        deadline = time.monotonic() + 20
        while "working…" in rig.tmux.screen() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the run has ended: the answer is settled and written above the region
        written = [line for line in _history(rig).split("\n") if "word" in line]
    assert len(live) >= 2, live  # it wrapped while live
    # The lines finished while live are the ones written to the scrollback, column for column.
    assert written[: len(live) - 1] == live[:-1], (live, written)
