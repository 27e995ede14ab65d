"""Issue 25's UI calls and session changes in ``tau`` in tmux, from the example extensions: the
working message, a paste into the editor, an overlay over the conversation, theme switching,
a branch into a new session, and a nudge that starts a turn. Skips without tmux."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.coding.tui.test_tmux_keys_and_paste import Rig, _answers, tau
from tests.coding.tui.tmux_session import API

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


def _send(rig: Rig, text: str) -> None:
    rig.type(text)
    rig.wait_editor(text[:30])
    rig.keys("Enter")


def test_working_message_paste_and_overlay(tmp_path: Path) -> None:
    slow = Scripted(body=sse_body(API, ScriptedReply(text="Looked at it.")), chunk_size=40, delay=0.3)
    with tau(tmp_path, [slow], "-e", str(EXAMPLES / "working_words.py")) as rig:
        _send(rig, "hello")
        screen = rig.tmux.wait_for("reading the code…")
        assert "working…" not in screen
        rig.tmux.wait_for("Looked at it.")
        deadline = time.monotonic() + 10
        while "reading the code…" in rig.tmux.screen() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "reading the code…" not in rig.tmux.screen()  # agent_end gave Tau's own back

        _send(rig, "/snippet review")
        rig.wait_editor("Review the last change for bugs and missing tests.")
        rig.keys("C-u")
        rig.wait_editor("Ask anything")

        _send(rig, "/cheatsheet")
        screen = rig.tmux.wait_for("snippets (Esc closes)")
        assert "Looked at it." in screen  # the conversation stays visible around the overlay
        rig.keys("Escape")
        deadline = time.monotonic() + 10
        while "snippets (Esc closes)" in rig.tmux.screen() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "snippets (Esc closes)" not in rig.tmux.screen()


def test_theme_switcher_and_branch_here(tmp_path: Path) -> None:
    args = ("-e", str(EXAMPLES / "theme_switcher.py"), "-e", str(EXAMPLES / "branch_here.py"))
    with tau(tmp_path, _answers("First answer.", "Second answer."), *args) as rig:
        _send(rig, "/flip-theme light")
        rig.tmux.wait_for("theme: light")
        settings = json.loads((rig.home / ".tau" / "settings.json").read_text())
        assert settings["theme"] == "light"  # saved as /theme saves it
        _send(rig, "/flip-theme nope")
        rig.tmux.wait_for("theme unchanged: Theme 'nope' not found")
        _send(rig, "/sunset")
        rig.tmux.wait_for("theme: sunset (this run)")

        _send(rig, "remember the number 42")
        rig.tmux.wait_for("First answer.")
        sessions = sorted((rig.home / ".tau" / "sessions").rglob("*.jsonl"))
        assert len(sessions) == 1
        _send(rig, "/branch-here mark")
        rig.tmux.wait_for("branched into a new session")
        now = sorted((rig.home / ".tau" / "sessions").rglob("*.jsonl"))
        assert len(now) == 2
        screen = rig.tmux.wait_for("First answer.")  # the new session's transcript holds it too
        assert "remember the number 42" in screen
        _send(rig, "and now?")
        rig.tmux.wait_for("Second answer.")
        assert "remember the number 42" in json.dumps(rig.server.requests[-1].json()["messages"])
        (new,) = [p for p in now if p not in sessions]
        assert "Second answer." in new.read_text() and "Second answer." not in sessions[0].read_text()


def test_nudge_starts_a_turn_after_its_command(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("Nudged back."), "-e", str(EXAMPLES / "provider_toggle.py")) as rig:
        _send(rig, "/nudge check the tests")
        rig.tmux.wait_for("Nudged back.")
        assert "check the tests" in json.dumps(rig.server.requests[-1].json()["messages"])


def test_tree_summary_asks_an_async_handler_and_takes_an_extensions_summary(tmp_path: Path) -> None:
    """/tree's "s": confirm_leave's async handler asks first (its "no" counts), then
    branch_notes writes the summary, so the model is not asked for one."""
    args = ("-e", str(EXAMPLES / "confirm_leave.py"), "-e", str(EXAMPLES / "branch_notes.py"))
    with tau(tmp_path, _answers("One.", "Two."), *args) as rig:
        _send(rig, "first question")
        rig.tmux.wait_for("One.")
        _send(rig, "second question")
        rig.tmux.wait_for("Two.")
        for answer in ("n", "y"):
            _send(rig, "/tree")
            rig.tmux.wait_for("Session tree")
            rig.keys("Up")
            rig.keys("s")
            rig.tmux.wait_for_question("Move in the session tree?")
            rig.keys(answer)
            if answer == "n":
                rig.tmux.wait_for("stayed: move in the session tree declined")
        rig.tmux.wait_for("branch notes written")
        rig.wait_editor("second question")
        assert len(rig.server.requests) == 2  # no summary request
        (session,) = sorted((rig.home / ".tau" / "sessions").rglob("*.jsonl"))
        entries = [json.loads(line) for line in session.read_text().splitlines()]
        (summary,) = [e for e in entries if e["type"] == "branch_summary"]
        assert summary["fromHook"] is True and "- asked: second question" in summary["summary"]
