"""A PreToolUse hook's allow/ask/deny and an extension's block are inputs to the one permission
engine: allow runs what would ask, ask asks through the same approver, deny rules still win."""

from __future__ import annotations

from pathlib import Path

from tau_agent.testing.fake_provider import call, reply
from tau_coding.permissions.approver import Approval, ApprovalRequest
from tau_coding.permissions.gate import PermissionGate
from tau_coding.permissions.modes import PermissionMode
from tau_coding.permissions.paths import Places
from tau_coding.permissions.rules import RuleSet
from tests.coding.extensions.helpers import fake
from tests.coding.extensions.shell_hooks.helpers import hook, hooked_rig, script, settings


def _decision(tmp_path: Path, word: str) -> str:
    return str(
        script(
            tmp_path / "hooks",
            f"{word}.sh",
            f"""
            #!/usr/bin/env bash
            echo '{{"hookSpecificOutput": {{"hookEventName": "PreToolUse", "permissionDecision": "{word}"}}}}'
            """,
        )
    )


class Answer:
    def __init__(self, choice: Approval) -> None:
        self.choice = choice
        self.asked: list[ApprovalRequest] = []

    async def __call__(self, request: ApprovalRequest) -> Approval:
        self.asked.append(request)
        return self.choice


def _gate(
    tmp_path: Path, mode: PermissionMode, approver: Answer | None = None, **rules: list[str]
) -> PermissionGate:
    places = Places(str(tmp_path), str(tmp_path / "home"), str(tmp_path / "home" / ".tau"))
    return PermissionGate(rules=RuleSet.from_settings(rules), mode=mode, places=places, approver=approver)


async def test_without_a_hook_workspace_mode_denies_the_command(tmp_path: Path) -> None:
    provider = fake(reply(call("bash", {"command": "touch made.txt"})), "ok")
    rig = hooked_rig(tmp_path, provider, settings(), gate=_gate(tmp_path, "workspace"))
    await rig.run("go")
    assert not (tmp_path / "made.txt").exists()
    assert rig.result_text().startswith("Permission denied (workspace mode, no one can be asked)")


async def test_a_hook_allow_runs_what_would_be_denied_for_want_of_an_answer(tmp_path: Path) -> None:
    provider = fake(reply(call("bash", {"command": "touch made.txt"})), "ok")
    rules = settings(hook("PreToolUse", _decision(tmp_path, "allow"), matcher="Bash"))
    rig = hooked_rig(tmp_path, provider, rules, gate=_gate(tmp_path, "workspace"))
    await rig.run("go")
    assert (tmp_path / "made.txt").exists()


async def test_a_hook_allow_does_not_beat_a_deny_rule(tmp_path: Path) -> None:
    provider = fake(reply(call("bash", {"command": "touch made.txt"})), "ok")
    rules = settings(hook("PreToolUse", _decision(tmp_path, "allow"), matcher="Bash"))
    rig = hooked_rig(tmp_path, provider, rules, gate=_gate(tmp_path, "yolo", deny=["Bash(touch:*)"]))
    await rig.run("go")
    assert not (tmp_path / "made.txt").exists()
    assert "denied by the rule Bash(touch:*)" in rig.result_text()


async def test_a_hook_ask_goes_to_the_sessions_approver(tmp_path: Path) -> None:
    answer = Answer(Approval("deny", "not that file"))
    provider = fake(reply(call("write", {"path": "x.txt", "content": "x"})), "ok")
    rules = settings(hook("PreToolUse", _decision(tmp_path, "ask"), matcher="Write"))
    rig = hooked_rig(tmp_path, provider, rules, gate=_gate(tmp_path, "accept-edits", answer))
    await rig.run("write")
    assert not (tmp_path / "x.txt").exists()
    assert [r.reason for r in answer.asked] == ["a PreToolUse hook asks"]
    assert rig.result_text() == "The user denied this write call: not that file"
