"""Permissions through the real ``tau`` command: print and JSON never wait and say what would
allow a denied call; settings and flags choose the mode; RPC asks its client (a ``select``
extension_ui_request) and the answer decides."""

from __future__ import annotations

import asyncio
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.sandbox.probe import sandbox_availability
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.rpc_project import configure_two_models, make_project, start
from tests.e2e.scripted_project import MODEL, Project, Result, server

API = "openai-completions"
BUILD = {"command": "echo built > out.txt"}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", API)


def _call(name: str, args: dict[str, object], n: int = 1) -> ScriptedCall:
    return ScriptedCall(f"call_{n:09d}", name, args)


def _tool_results(body: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in body["messages"] if m.get("role") == "tool"]


def _settings(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


async def test_print_mode_without_a_sandbox_denies_a_command_at_once_and_names_what_would_allow_it(
    project: Project, tmp_path: Path
) -> None:
    replies = [ScriptedReply(calls=[_call("bash", BUILD)]), ScriptedReply(text="Could not.")]
    (tmp_path / "bin").mkdir()
    async with server(API, replies) as srv:
        project.configure(srv.url)
        started = time.monotonic()
        env = project.env() | {"PATH": str(tmp_path / "bin")}  # no bwrap: commands cannot be confined
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tau_coding", "-p", "--model", MODEL, "build it",
            cwd=project.root, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), 60)
        result = Result(process.returncode or 0, out.decode(), err.decode())
        elapsed = time.monotonic() - started
        assert (result.code, result.stdout) == (0, "Could not.\n"), result.stderr
        [denial] = _tool_results(srv.requests[1].json())
    assert "Permission denied (workspace mode, no one can be asked)" in denial
    assert '"Bash(echo built > out.txt)"' not in denial  # the suggestion is the command, not the redirection
    assert '"Bash(echo:*)"' in denial and "--permission-mode yolo" in denial
    assert not (project.root / "out.txt").exists()
    assert elapsed < 30  # nothing waited for an answer
    # the user hears it too, once, in the same words
    assert result.stderr.count("tau: warning: Permission denied (workspace mode") == 1, result.stderr
    assert denial in result.stderr


@pytest.mark.skipif(sandbox_availability().kind != "bwrap", reason="bubblewrap cannot run here")
async def test_print_mode_runs_commands_in_the_sandbox_project_writable_outside_not(
    project: Project, tmp_path: Path
) -> None:
    outside = Path("/var/tmp") / f"tau-permissions-e2e-{uuid.uuid4().hex}"  # temp dirs are writable
    calls = [_call("bash", BUILD, 1), _call("bash", {"command": f"echo x > {outside}"}, 2)]
    async with server(API, [ScriptedReply(calls=calls), ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "build it")
        assert result.code == 0, result.stderr
        built, refused = _tool_results(srv.requests[1].json())
    assert (project.root / "out.txt").read_text() == "built\n" and "Permission denied (" not in built
    written = outside.exists()
    outside.unlink(missing_ok=True)
    assert not written and "dangerouslyDisableSandbox" in refused


async def test_workspace_mode_runs_edits_inside_the_project(project: Project) -> None:
    (project.root / "app.py").write_text("x = 0\n")
    edit = {"path": "app.py", "edits": [{"oldText": "x = 0", "newText": "x = 1"}]}
    outside = {"path": str(project.home / "elsewhere.txt"), "content": "no"}
    calls = [_call("edit", edit, 1), _call("write", outside, 2)]
    async with server(API, [ScriptedReply(calls=calls), ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "edit")
        assert result.code == 0, result.stderr
        edited, written = _tool_results(srv.requests[1].json())
    assert (project.root / "app.py").read_text() == "x = 1\n"
    assert "Permission denied" not in edited
    assert "Permission denied" in written and not (project.home / "elsewhere.txt").exists()


async def test_json_mode_reports_the_denial_as_a_tool_error(project: Project) -> None:
    outside = {"path": str(project.home / "notes.txt"), "content": "no"}  # outside the project
    replies = [ScriptedReply(calls=[_call("write", outside)]), ScriptedReply(text="No.")]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--mode", "json", "--model", MODEL, "write it")
        assert result.code == 0, result.stderr
    ends = [e for e in map(json.loads, result.stdout.splitlines()) if e.get("type") == "tool_execution_end"]
    assert len(ends) == 1 and ends[0]["isError"] is True
    assert "Permission denied (workspace mode" in json.dumps(ends[0]["result"])


async def test_yolo_in_settings_is_pis_behaviour(project: Project) -> None:
    replies = [ScriptedReply(calls=[_call("bash", BUILD)]), ScriptedReply(text="Done.")]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        _settings(project.tau_home / "settings.json", {"permissions": {"defaultMode": "yolo"}})
        result = await project.tau("-p", "--model", MODEL, "build it")
        assert result.code == 0, result.stderr
    assert (project.root / "out.txt").read_text() == "built\n"


async def test_an_allow_rule_in_the_user_settings_lets_the_command_run(project: Project) -> None:
    replies = [ScriptedReply(calls=[_call("bash", BUILD)]), ScriptedReply(text="Done.")]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        _settings(project.tau_home / "settings.json", {"permissions": {"allow": ["Bash(echo:*)"]}})
        result = await project.tau("-p", "--model", MODEL, "build it")
        assert result.code == 0, result.stderr
    assert (project.root / "out.txt").read_text() == "built\n"


async def test_an_untrusted_project_cannot_allow_itself_commands(project: Project) -> None:
    outside = Path("/var/tmp") / f"tau-permissions-e2e-{uuid.uuid4().hex}"  # temp dirs are writable
    replies = [
        ScriptedReply(calls=[_call("bash", {"command": f"echo x > {outside}"})]),
        ScriptedReply(text="No."),
    ]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        project_rules = {"permissions": {"allow": ["Bash"], "defaultMode": "yolo"}}
        _settings(project.root / ".tau" / "settings.json", project_rules)
        result = await project.tau("-p", "--model", MODEL, "build it")
        assert result.code == 0, result.stderr
    written = outside.exists()
    outside.unlink(missing_ok=True)
    assert "permissions ignored: the project is not trusted" in result.stderr
    assert not written  # workspace mode: the command ran confined, or not at all


async def test_plan_mode_in_print_reads_but_does_not_edit(project: Project) -> None:
    (project.root / "app.py").write_text("x = 0\n")
    edit = {"path": "app.py", "edits": [{"oldText": "x = 0", "newText": "x = 1"}]}
    calls = [_call("read", {"path": "app.py"}, 1), _call("edit", edit, 2)]
    async with server(API, [ScriptedReply(calls=calls), ScriptedReply(text="1. set x to 1")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--permission-mode", "plan", "--model", MODEL, "plan it")
        assert (result.code, result.stdout) == (0, "1. set x to 1\n"), result.stderr
        first = srv.requests[0].json()
        read, edited = _tool_results(srv.requests[1].json())
    assert "# Plan mode" in json.dumps(first["messages"][0])
    assert "x = 0" in read and "plan mode allows read-only tools only" in edited
    assert (project.root / "app.py").read_text() == "x = 0\n"


async def test_an_unknown_mode_is_one_line(project: Project) -> None:
    async with server(API, [ScriptedReply(text="never")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--permission-mode", "sometimes", "--model", MODEL, "hi")
    assert result.code == 2
    assert result.stderr.strip().splitlines() == [
        "tau: unknown permission mode 'sometimes'; known modes: ask, accept-edits, plan, yolo, workspace, "
        "default, acceptEdits, accept_edits, bypass, bypassPermissions, dontAsk"
    ]


@pytest.mark.parametrize("answer", ["Yes, once", "No, and tell the model why"])
async def test_rpc_asks_its_client_and_the_answer_decides(tmp_path: Path, answer: str) -> None:
    project = make_project(tmp_path)
    replies = [ScriptedReply(calls=[_call("bash", BUILD)]), ScriptedReply(text="Finished.")]
    async with server(API, replies) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project)
        try:
            await tau.prompt("build it")
            request = await _next_request(tau, "select")
            assert request["title"].startswith("Allow bash: echo built > out.txt?")
            assert answer in request["options"]
            await tau.send({"type": "extension_ui_response", "id": request["id"], "value": answer})
            if answer.startswith("No"):
                why = await _next_request(tau, "input")
                await tau.send({"type": "extension_ui_response", "id": why["id"], "value": "not now"})
            await tau.wait_for("agent_settled")
        finally:
            assert await tau.close() == 0
        [result] = _tool_results(srv.requests[1].json())
    if answer == "Yes, once":
        assert (project.root / "out.txt").read_text() == "built\n"
    else:
        assert result == "The user denied this bash call: not now"
        assert not (project.root / "out.txt").exists()


async def test_rpc_yes_and_add_to_the_project_writes_the_rule(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    replies = [ScriptedReply(calls=[_call("bash", {"command": "git status"})]), ScriptedReply(text="ok")]
    async with server(API, replies) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project)
        try:
            await tau.prompt("status")
            request = await _next_request(tau, "select")
            [add] = [o for o in request["options"] if o.endswith("to .tau/settings.json")]
            assert add == "Yes, and add Bash(git status:*) to .tau/settings.json"
            await tau.send({"type": "extension_ui_response", "id": request["id"], "value": add})
            await tau.wait_for("agent_settled")
            mode = await tau.request("get_permission_mode")
            assert mode == {"permissionMode": "ask", "rememberedRules": ["Bash(git status:*)"]}
            changed = await tau.request("set_permission_mode", mode="bypassPermissions")
            assert changed == {"permissionMode": "yolo"}
        finally:
            assert await tau.close() == 0
    saved = json.loads((project.root / ".tau" / "settings.json").read_text())
    assert saved == {"permissions": {"allow": ["Bash(git status:*)"]}}


async def _next_request(tau: RpcClient, method: str) -> dict[str, Any]:
    for _ in range(200):
        event = await tau.next_event()
        if event.get("type") == "extension_ui_request" and event.get("method") == method:
            return event
    raise AssertionError(f"no {method} request arrived")
