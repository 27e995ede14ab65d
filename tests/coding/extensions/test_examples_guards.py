"""The examples that guard (protected paths, confirm-before-rm, secrets, the user's !cmd, a
dirty repository) and route (model router), loaded from examples/extensions/ in a real session."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tau_agent.session.entries import CustomEntry
from tau_agent.testing.fake_provider import call, reply
from tau_ai.model import Model
from tau_coding.session.control import ChangeRefusedError, SessionControl
from tau_coding.session.store.manager import SessionManager
from tests.coding.extensions.helpers import fake, make_rig

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


async def test_protected_paths_blocks_writes_to_secrets_and_lets_others_through(tmp_path: Path) -> None:
    provider = fake(
        reply(
            call("write", {"path": ".env", "content": "KEY=1"}, id="a"),
            call("edit", {"path": ".git/config", "oldText": "x", "newText": "y"}, id="b"),
            call("write", {"path": "notes.md", "content": "hi"}, id="c"),
        ),
        "ok",
    )
    rig = make_rig(tmp_path, provider, [EXAMPLES / "protected_paths.py"])
    await rig.run("go")
    assert "is protected (.env)" in rig.result_text(0) and not (tmp_path / ".env").exists()
    assert "is protected (.git)" in rig.result_text(1)
    assert (tmp_path / "notes.md").read_text() == "hi"


async def test_confirm_rm_asks_for_rm_even_after_a_separator(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("x")
    provider = fake(
        reply(
            call("bash", {"command": "echo hi && rm keep.txt"}, id="a"),
            call("bash", {"command": "echo rm"}, id="b"),
        ),
        "ok",
    )
    rig = make_rig(tmp_path, provider, [EXAMPLES / "confirm_rm.py"])
    await rig.run("go")
    assert (tmp_path / "keep.txt").exists() and "did not allow deleting files" in rig.result_text(0)
    assert rig.result_text(1).strip() == "rm"  # the word as an argument is not a deletion
    assert any("confirm 'Delete files?'" in w for w in rig.warnings)


async def test_redact_secrets_masks_keys_before_the_model_reads_them(tmp_path: Path) -> None:
    (tmp_path / "cfg").write_text("token = sk-abcdefghijklmnopqrstuvwx\nok = 1\n")
    provider = fake(reply(call("read", {"path": "cfg"})), "ok")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "redact_secrets.py"])
    await rig.run("read it")
    assert "[REDACTED]" in rig.result_text() and "sk-abc" not in rig.result_text()
    sent = str(provider.contexts[1].messages[-1])
    assert "sk-abc" not in sent
    assert rig.ui.notices == [("warning", "redacted 1 secret(s) from read output")]


async def test_bash_audit_records_every_command_and_refuses_catastrophes(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake(), [EXAMPLES / "bash_audit.py"])
    refused = await rig.session.run_bash("rm -rf /")
    assert (refused.exit_code, refused.output) == (1, "refused by bash_audit: rm -rf /")
    ran = await rig.session.run_bash("echo fine")
    assert ran.output.strip() == "fine"
    audit = [
        e.data
        for e in rig.session.log.entries
        if isinstance(e, CustomEntry) and e.custom_type == "bash-audit"
    ]
    assert [(a["command"], a["refused"]) for a in audit] == [("rm -rf /", True), ("echo fine", False)]


async def test_dirty_repo_guard_refuses_a_new_session_until_the_work_is_committed(tmp_path: Path) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("sessions/\n__pycache__/\n")
    rig = make_rig(tmp_path, fake("a"), [EXAMPLES / "dirty_repo_guard.py"])
    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    with pytest.raises(ChangeRefusedError, match=r"uncommitted change\(s\)"):
        control.new_session()
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "work"], cwd=tmp_path, check=True)
    before = rig.session.session_file
    control.new_session()
    assert rig.session.session_file != before


async def test_model_router_sends_long_or_marked_prompts_to_the_big_model(tmp_path: Path) -> None:
    small = Model("small-1", "fake", "fake", "http://127.0.0.1")
    big = Model("big-1", "fake", "fake", "http://127.0.0.1")
    provider = fake("a", "b", "c")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "model_router.py"])
    settings = {"router.big": "fake/big-1", "router.small": "fake/small-1"}
    rig.host.read_setting = settings.get
    rig.host.list_models = lambda: [small, big]
    await rig.run("!!big prove it")
    assert rig.session.model is big and "prove it" in str(provider.contexts[0].messages[-1])
    await rig.run("hi")
    assert rig.session.model is small
    await rig.run("x" * 500)
    assert rig.session.model is big and rig.ui.status["router"] == "→ big-1"
