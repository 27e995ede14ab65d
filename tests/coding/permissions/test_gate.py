"""PermissionGate: asking, remembering, saving rules, hook words, and denial texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_coding.config.permission_rules import RuleFileError, add_allow_rule
from tau_coding.permissions.approver import Approval, ApprovalRequest
from tau_coding.permissions.gate import PermissionGate
from tau_coding.permissions.modes import PermissionMode
from tau_coding.permissions.paths import Places
from tau_coding.permissions.rules import RuleSet

PLACES = Places("/proj", "/home/u", "/home/u/.tau")


class Scripted:
    """An Approver that answers from a list and records the questions."""

    def __init__(self, *answers: Approval) -> None:
        self.answers = list(answers)
        self.asked: list[ApprovalRequest] = []

    async def __call__(self, request: ApprovalRequest) -> Approval:
        self.asked.append(request)
        return self.answers.pop(0)


def gate(
    mode: PermissionMode = "ask", approver: Scripted | None = None, **rules: list[str]
) -> PermissionGate:
    saved: list[str] = []
    made = PermissionGate(
        rules=RuleSet.from_settings(rules),
        mode=mode,
        places=PLACES,
        approver=approver,
        save_rule=saved.append,
    )
    made.saved = saved  # type: ignore[attr-defined]
    return made


async def test_without_an_approver_an_ask_is_a_denial_that_names_the_rule_and_the_flag() -> None:
    error = await gate("workspace").check("bash", {"command": "git push origin"})
    assert error is not None
    assert "workspace mode" in error and '"Bash(git push:*)"' in error and "--permission-mode yolo" in error


async def test_a_deny_rule_is_named_in_the_error() -> None:
    error = await gate(deny=["Bash(rm:*)"]).check("bash", {"command": "ls; rm -rf x"})
    assert error == "Permission denied: denied by the rule Bash(rm:*) (rm -rf x) (permissions.deny)"


async def test_yes_once_runs_this_call_and_asks_again_next_time() -> None:
    approver = Scripted(Approval("once"), Approval("once"))
    made = gate(approver=approver)
    assert await made.check("bash", {"command": "make"}) is None
    assert await made.check("bash", {"command": "make"}) is None
    assert len(approver.asked) == 2
    assert approver.asked[0].summary == "bash: make" and approver.asked[0].suggestions == ("Bash(make)",)


async def test_yes_for_the_session_remembers_the_rule_without_saving_it() -> None:
    approver = Scripted(Approval("session"))
    made = gate(approver=approver)
    assert await made.check("bash", {"command": "git log -3"}) is None
    assert await made.check("bash", {"command": "git log --oneline"}) is None
    assert len(approver.asked) == 1
    assert made.remembered == ("Bash(git log:*)",)
    assert made.saved == []  # type: ignore[attr-defined]


async def test_yes_for_the_project_saves_the_rule() -> None:
    made = gate(approver=Scripted(Approval("project")))
    assert await made.check("edit", {"path": "src/a.py"}) is None
    assert made.saved == ["Edit(src/a.py)"]  # type: ignore[attr-defined]
    assert made.decide("edit", {"path": "src/a.py"}).behavior == "allow"


async def test_no_sends_the_reason_to_the_model() -> None:
    error = await gate(approver=Scripted(Approval("deny", "use the Makefile"))).check(
        "bash", {"command": "cc x.c"}
    )
    assert error == "The user denied this bash call: use the Makefile"


async def test_a_hook_allow_skips_the_question_but_not_a_deny_rule() -> None:
    approver = Scripted()
    made = gate(approver=approver, deny=["Bash(rm:*)"])
    assert await made.check("bash", {"command": "make"}, "allow") is None
    assert await made.check("bash", {"command": "rm x"}, "allow") is not None
    assert approver.asked == []


async def test_a_hook_ask_asks_about_what_would_run() -> None:
    approver = Scripted(Approval("deny"))
    made = gate("accept-edits", approver)
    assert await made.check("edit", {"path": "src/a.py"}, "ask") == "The user denied this edit call"
    assert approver.asked[0].reason == "a PreToolUse hook asks"


async def test_yolo_ignores_a_hook_ask_and_plan_mode_refuses_edits() -> None:
    assert await gate("yolo").check("edit", {"path": "src/a.py"}, "ask") is None
    error = await gate("plan").check("edit", {"path": "src/a.py"})
    assert error is not None and "plan mode" in error


async def test_mode_changes_reach_listeners() -> None:
    made = gate()
    heard: list[str] = []
    made.on_mode_change(heard.append)
    made.set_mode("plan")
    made.set_mode("plan")
    made.set_mode("yolo")
    assert heard == ["plan", "yolo"] and made.mode == "yolo"


def test_add_allow_rule_keeps_other_keys_and_does_not_repeat(tmp_path: Path) -> None:
    target = tmp_path / ".tau" / "settings.json"
    assert add_allow_rule(target, "Bash(make)") is True
    target.write_text(
        json.dumps({"theme": "dark", "permissions": {"deny": ["Bash(rm:*)"], "allow": ["Edit"]}})
    )
    assert add_allow_rule(target, "Bash(make)") is True
    assert add_allow_rule(target, "Bash(make)") is False
    assert json.loads(target.read_text()) == {
        "theme": "dark",
        "permissions": {"deny": ["Bash(rm:*)"], "allow": ["Edit", "Bash(make)"]},
    }


def test_add_allow_rule_leaves_a_broken_file_alone(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_text("{broken")
    with pytest.raises(RuleFileError, match="not valid JSON"):
        add_allow_rule(target, "Bash(make)")
    assert target.read_text() == "{broken"


async def test_the_question_carries_the_change_the_call_would_make() -> None:
    approver = Scripted(Approval("once"), Approval("once"))
    asked = gate("ask", approver)
    asked.preview = lambda tool, args: f"diff of {tool} {args['path']}" if tool == "edit" else None
    assert await asked.check("edit", {"path": "/proj/a.py", "oldText": "a", "newText": "b"}) is None
    assert await asked.check("bash", {"command": "make"}) is None
    assert [r.preview for r in approver.asked] == ["diff of edit /proj/a.py", ""]


async def test_yes_for_the_session_covers_the_same_tool_with_other_arguments() -> None:
    approver = Scripted(Approval("session"), Approval("session"))
    asked = gate("ask", approver)
    assert await asked.check("bash", {"command": "python3 -m pytest -q 2>&1 | tail -5"}) is None
    assert approver.asked[0].suggestions == ("Bash(python3 -m pytest:*)", "Bash(tail:*)")
    assert await asked.check("bash", {"command": "python3 -m pytest -x tests | tail -3"}) is None
    assert len(approver.asked) == 1  # the second run did not ask
    assert await asked.check("bash", {"command": "rm -rf build"}) is None
    assert approver.asked[1].suggestions == ("Bash(rm -rf build)",)  # not a reading command: exact
    assert asked.decide("bash", {"command": "rm -rf dist"}).behavior == "ask"


async def test_only_commands_ask_whether_they_run_confined() -> None:
    """The answer may start a sandbox probe (a bwrap process): reads and edits never wait for it."""
    asked: list[bool] = []

    def sandboxed() -> bool:
        asked.append(True)
        return True

    made = gate("workspace")
    made.sandboxed = sandboxed
    assert await made.check("read", {"path": "a.txt"}) is None
    assert await made.check("edit", {"path": "a.txt", "oldText": "a", "newText": "b"}) is None
    assert asked == []
    assert await made.check("bash", {"command": "make"}) is None  # confined: workspace runs it
    proxied = {"name": "bash", "arguments": {"command": "make"}}
    assert await made.check("mcp_call_tool", proxied) is None
    assert asked == [True, True]
