"""Approvals in a real terminal (tmux): the dialog appears for a command, and each answer does
what it says; Shift+Tab cycles the mode shown in the footer; a plan is approved in a dialog.
Skips without tmux."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.tui.tmux_session import API, Tmux, launch, point_at, running

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _bash(n: int, command: str) -> ScriptedReply:
    return ScriptedReply(calls=[ScriptedCall(f"call_{n:09d}", "bash", {"command": command})])


def _prompt(tmux: Tmux, text: str) -> None:
    tmux("send-keys", "-t", "tau", "-l", text)
    tmux.wait_for(text)  # typed text is in the editor before Enter (see the known trap)
    tmux("send-keys", "-t", "tau", "Enter")


def _choose(tmux: Tmux, option: str, downs: int) -> None:
    tmux.wait_for_question(option)
    for _ in range(downs):
        tmux("send-keys", "-t", "tau", "Down")
    tmux("send-keys", "-t", "tau", "Enter")


def _results(server: ReplayServerThread, index: int) -> list[str]:
    return [str(m["content"]) for m in server.requests[index].json()["messages"] if m.get("role") == "tool"]


def test_each_approval_answer_does_what_it_says(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    replies = [
        _bash(1, "touch once.txt"),
        ScriptedReply(text="Made once."),
        _bash(2, "touch kept.txt"),
        ScriptedReply(text="Made kept."),
        _bash(3, "rm once.txt"),
        ScriptedReply(text="Left it."),
        _bash(4, "touch session.txt"),
        _bash(5, "touch session.txt"),
        ScriptedReply(text="Made session twice."),
    ]
    with running(tmp_path, project, home, replies) as (tmux, server):
        tmux.wait_for("⏵⏵ ask")  # the footer shows the mode once the session is open

        _prompt(tmux, "first")
        screen = tmux.wait_for("Allow bash: touch once.txt?")
        assert "Yes, and add Bash(touch once.txt) to .tau/settings.json" in screen
        time.sleep(1.5)  # the person thinks: the command's time leaves that out
        _choose(tmux, "Yes, once", 0)
        screen = tmux.wait_for("Made once.")
        assert (project / "once.txt").exists()
        (row,) = [line for line in screen.splitlines() if "$ touch once.txt" in line]
        assert not re.search(r"\d\.\ds", row), row  # (a quick command shows no time at all)

        _prompt(tmux, "second")
        _choose(tmux, "Yes, and add Bash(touch kept.txt) to .tau/settings.json", 2)
        tmux.wait_for("Made kept.")
        assert (project / "kept.txt").exists()
        saved = json.loads((project / ".tau" / "settings.json").read_text())
        assert saved == {"permissions": {"allow": ["Bash(touch kept.txt)"]}}

        _prompt(tmux, "third")
        _choose(tmux, "No, and tell the model why", 3)
        tmux.wait_for("Why not?")
        tmux("send-keys", "-t", "tau", "-l", "keep it")
        tmux.wait_for("keep it")
        tmux("send-keys", "-t", "tau", "Enter")
        tmux.wait_for("Left it.")
        assert (project / "once.txt").exists()
        assert _results(server, 5)[-1] == "The user denied this bash call: keep it"

        _prompt(tmux, "fourth")
        _choose(tmux, "Yes, and allow Bash(touch session.txt) for this session", 1)
        tmux.wait_for("Made session twice.")  # the second, same call ran without a dialog
        assert len(server.requests) == 9

        tmux("send-keys", "-t", "tau", "BTab")
        tmux.wait_for("⏵⏵ accept-edits")
        tmux("send-keys", "-t", "tau", "BTab")
        tmux.wait_for("⏵⏵ plan")
        tmux("send-keys", "-t", "tau", "BTab")
        tmux.wait_for("⏵⏵ yolo")


def test_an_edit_is_asked_about_with_the_change_it_would_make(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    edit = {"path": "calc.py", "oldText": "return a - b", "newText": "return a + b"}
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "edit", edit)]),
        ScriptedReply(text="Fixed."),
    ]
    with running(tmp_path, project, home, replies) as (tmux, _server):
        _prompt(tmux, "fix add")
        # The diff's last line, not the title: a capture can land while a frame is half written.
        screen = tmux.wait_for("+    return a + b")
        assert "Allow edit: calc.py?" in screen and "-    return a - b" in screen
        assert (project / "calc.py").read_text().endswith("a - b\n")  # asked before it ran
        _choose(tmux, "Yes, once", 0)
        tmux.wait_for("Fixed.")
        assert (project / "calc.py").read_text().endswith("a + b\n")


def test_plan_mode_refine_then_approve_shows_the_steps_as_the_task_list(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / "app.py").write_text("x = 0\n")
    edit = {"path": "app.py", "edits": [{"oldText": "x = 0", "newText": "x = 1"}]}
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "edit", edit)]),
        ScriptedReply(text="Plan:\n1. set x to 1"),
        ScriptedReply(text="Plan:\n1. set x to 1\n2. say it is done"),
        ScriptedReply(calls=[ScriptedCall("call_000000002", "edit", edit)]),
        ScriptedReply(text="Done: x is 1."),
    ]
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m", "--permission-mode", "plan")
        try:
            tmux.wait_for("⏵⏵ plan")
            _prompt(tmux, "make x one")
            tmux.wait_for("Plan:")
            assert (project / "app.py").read_text() == "x = 0\n"  # plan mode refused the edit
            _choose(tmux, "Refine the plan", 2)
            tmux.wait_for("What should change in the plan?")
            _prompt(tmux, "and say when done")
            tmux.wait_for("say it is done")
            tmux.wait_for("The plan is ready")  # still in plan mode: the refined plan is offered again
            _choose(tmux, "Approve the plan and start (accept edits)", 1)
            tmux.wait_for("Done: x is 1.")
            screen = tmux.wait_for("[ ] say it is done")  # the todo panel holds the plan's steps
            assert "[ ] set x to 1" in screen and "todo 0/2" in screen
            tmux.wait_for("⏵⏵ accept-edits")
        finally:
            tmux.kill()
    assert (project / "app.py").read_text() == "x = 1\n"
    assert "plan mode allows read-only tools only" in _results(server, 1)[0]
    system = [json.dumps(server.requests[i].json()["messages"][0]) for i in (0, 2, 3)]
    assert ["# Plan mode" in s for s in system] == [True, True, False]
    assert "and say when done" in json.dumps(server.requests[2].json()["messages"][-1])
    approved = json.dumps(server.requests[3].json()["messages"])
    assert "The user approved the plan" in approved and "2 steps are the task list" in approved


def test_an_approval_that_opens_while_the_person_types_is_not_answered_by_their_keys(tmp_path: Path) -> None:
    # Before: words typed for the next message went into the dialog that opened under them, and
    # their Enter approved `rm -rf keep` unseen.
    project, home = tmp_path / "project", tmp_path / "home"
    (project / "keep").mkdir(parents=True)
    replies = [_bash(1, "rm -rf keep"), ScriptedReply(text="Left it.")]
    with running(tmp_path, project, home, replies) as (tmux, _server):
        _prompt(tmux, "clean up")  # the dialog opens a moment later, while the typing goes on
        for word in ["and ", "then ", "tell ", "me ", "what ", "you ", "did "]:
            time.sleep(0.15)
            tmux("send-keys", "-t", "tau", "-l", word)
        tmux("send-keys", "-t", "tau", "Enter")
        tmux.wait_for_question("Allow bash: rm -rf keep?")
        assert (project / "keep").exists()  # the Enter did not approve it
        _choose(tmux, "No, and tell the model why", 3)
        tmux.wait_for_question("Why not?")
        tmux("send-keys", "-t", "tau", "Enter")  # no reason given
        screen = tmux.wait_for("Left it.")
        assert "tell me what you did" in screen  # what was typed waits in the editor
    assert (project / "keep").exists()
