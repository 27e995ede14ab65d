"""/rewind in a real terminal (tmux): Esc Esc opens the picker (doubleEscapeAction "rewind"),
each prompt shows what changed since; code only (diff shown, confirmed), undo from "before
rewind", conversation only, summarise from here, and code and conversation. Skips without
tmux."""

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


def _bash(call_id: str, command: str) -> ScriptedReply:
    return ScriptedReply(calls=[ScriptedCall(call_id, "bash", {"command": command})])


def _keys(tmux: Tmux, *keys: str) -> None:
    for key in keys:
        tmux("send-keys", "-t", "tau", key)
        time.sleep(0.15)


def _command(tmux: Tmux, text: str) -> None:
    tmux("send-keys", "-t", "tau", "-l", text)
    tmux.wait_for(f"│ {text} ")  # in the editor before Enter (keys and bindings race under load)
    tmux("send-keys", "-t", "tau", "Enter")


def _choose(tmux: Tmux, title: str, downs: int) -> str:
    screen = tmux.wait_for(title)
    _keys(tmux, *(["Down"] * downs), "Enter")
    return screen


def test_rewind_picker_and_each_choice_in_the_terminal(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / "a.txt").write_text("one\n")
    replies = [
        _bash("call_000000001", "echo two > a.txt && echo new > b.txt"),
        ScriptedReply(text="Changed once."),
        _bash("call_000000002", "rm a.txt"),
        ScriptedReply(text="Changed twice."),
        ScriptedReply(text="The second prompt deleted a.txt."),
    ]
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)
        (home / ".tau" / "settings.json").write_text(
            json.dumps({"doubleEscapeAction": "rewind", "permissions": {"defaultMode": "yolo"}})
        )
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux.wait_for_app()
            for prompt, answer in (("first change", "Changed once."), ("second change", "Changed twice.")):
                tmux("send-keys", "-t", "tau", "-l", prompt)
                tmux.wait_for(prompt)
                tmux("send-keys", "-t", "tau", "Enter")
                tmux.wait_for(answer, timeout=60)
            time.sleep(0.5)
            _keys(tmux, "Escape", "Escape")
            picker = _choose(tmux, "Rewind to before which prompt?", 1)
            assert "second change · 1 file +0 -1" in picker
            assert "first change · 2 files +1 -1" in picker
            _choose(tmux, "Rewind: what to restore?", 2)  # code only
            diff = tmux.wait_for("Restore these files?")
            assert "a.txt" in diff and "b.txt" in diff and "before rewind" in diff
            _keys(tmux, "y")
            tmux.wait_for("Restored the code")
            assert (project / "a.txt").read_text() == "one\n" and not (project / "b.txt").exists()

            _command(tmux, "/rewind")  # undo: the newest row is the "before rewind" checkpoint
            assert "before rewind" in _choose(tmux, "Rewind to before which prompt?", 0)
            _choose(tmux, "Rewind: what to restore?", 2)
            tmux.wait_for("Restore these files?")
            _keys(tmux, "y")
            tmux.wait_for("/rewind again offers")
            assert not (project / "a.txt").exists() and (project / "b.txt").read_text() == "new\n"

            _command(tmux, "/rewind")  # rows: before rewind x2, second change, first change
            _choose(tmux, "Rewind to before which prompt?", 2)
            _choose(tmux, "Rewind: what to restore?", 1)  # conversation only
            screen = tmux.wait_for("Rewound the conversation")
            assert "Changed twice." not in screen and "Changed once." in screen
            assert "second change" in screen  # back in the editor
            assert (project / "b.txt").exists()  # the code stays as it is

            _keys(tmux, "C-c")  # clear the editor
            _command(tmux, "/rewind")  # rows: before rewind x2, first change
            _choose(tmux, "Rewind to before which prompt?", 2)
            _choose(tmux, "Rewind: what to restore?", 3)  # summarise from here
            screen = tmux.wait_for("with a summary of what followed", timeout=60)
            assert "The second prompt deleted a.txt." in screen

            _keys(tmux, "C-c")
            _command(tmux, "/rewind")  # rows: before rewind x2 (the summary left "first change")
            _choose(tmux, "Rewind to before which prompt?", 0)  # the newest "before rewind"
            _choose(tmux, "Rewind: what to restore?", 0)  # code and conversation
            diff = tmux.wait_for("Restore these files?")
            assert "a.txt" in diff and "b.txt" in diff
            _keys(tmux, "y")
            screen = tmux.wait_for("Rewound code and conversation")
            assert "Changed twice." in screen  # the conversation as it was at that rewind
            assert (project / "a.txt").read_text() == "one\n" and not (project / "b.txt").exists()
            _keys(tmux, "C-c", "C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()
    assert "Changed once." in json.dumps(server.requests[-1].json()["messages"])
