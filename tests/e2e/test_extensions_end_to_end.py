"""``tau -p`` with extensions and shell hooks, as a subprocess against the local scripted server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

GATE = Path(__file__).resolve().parents[2] / "examples" / "extensions" / "permission_gate.py"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", "openai-completions")


async def test_permission_gate_extension_blocks_rm_rf_in_print_mode(project: Project) -> None:
    victim = project.root / "victim"
    victim.mkdir()
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "bash", {"command": "rm -rf victim"})]),
        ScriptedReply(text="I was not allowed."),
    ]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        result = await project.tau(
            "-p", "-e", str(GATE), "--permission-mode", "yolo", "--model", MODEL, "delete victim"
        )  # the extension decides
        assert result.code == 0, result.stderr
        assert result.stdout == "I was not allowed.\n"
        assert victim.exists()
        assert "Dangerous command" in result.stderr
        assert "Blocked by permission gate" in json.dumps(srv.requests[1].json())


async def test_user_shell_hook_blocks_with_exit_2_from_settings_json(project: Project) -> None:
    hook = project.root.parent / "no_write.sh"
    hook.write_text("#!/usr/bin/env bash\necho 'writes are frozen' >&2\nexit 2\n")
    hook.chmod(0o755)
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "write", {"path": "f.txt", "content": "x"})]),
        ScriptedReply(text="Frozen."),
    ]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        rules = {
            "hooks": {
                "PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": str(hook)}]}]
            }
        }
        (project.tau_home / "settings.json").write_text(json.dumps(rules))
        result = await project.tau("-p", "--model", MODEL, "write f")
        assert result.code == 0, result.stderr
        assert not (project.root / "f.txt").exists()
        assert "writes are frozen" in json.dumps(srv.requests[1].json())


async def test_trust_project_flag_alone_records_trust(project: Project) -> None:
    project.tau_home.mkdir(parents=True)
    result = await project.tau("--trust-project")
    assert result.code == 0 and "trusted" in result.stderr
    stored = json.loads((project.tau_home / "trusted-projects.json").read_text())
    assert str(project.root.resolve()) in stored["projects"]


async def test_slash_command_and_extension_flag_in_print_mode(project: Project) -> None:
    ext = project.root.parent / "flagged.py"
    ext.write_text(
        "def activate(tau):\n"
        "    tau.register_flag('shout')\n"
        "    tau.register_command('say', lambda a: a.upper() if tau.flag('shout') else a)\n"
    )
    async with server(project.api, [ScriptedReply(text="the model was asked")]) as srv:
        project.configure(srv.url)
        loud = await project.tau("-p", "-e", str(ext), "--shout", "--model", MODEL, "/say hi there")
        quiet = await project.tau("-p", "-e", str(ext), "--model", MODEL, "/say hi there")
        unknown = await project.tau("-p", "-e", str(ext), "--whisper", "--model", MODEL, "/say x")
        assert not srv.requests
    assert (loud.code, loud.stdout) == (0, "HI THERE\n"), loud.stderr
    assert (quiet.code, quiet.stdout) == (0, "hi there\n")
    assert unknown.code == 2 and "unrecognized arguments: --whisper" in unknown.stderr
