"""``tau -p`` with ``sandbox.enabled``: the model's bash runs confined, and the model is told why
a write outside the project failed. Skipped, with the reason, where bubblewrap cannot run."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.sandbox.probe import sandbox_availability
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"
_found = sandbox_availability(platform="linux")
pytestmark = pytest.mark.skipif(_found.kind != "bwrap", reason=f"bubblewrap cannot run here: {_found.reason}")


@pytest.fixture
def outside() -> Path:
    """A path outside every writable one (the test's temp dirs are writable in the sandbox)."""
    base = Path("/var/tmp")
    if not base.is_dir():
        pytest.skip("no /var/tmp to stand for 'outside the project'")
    path = base / f"tau-sandbox-e2e-{uuid.uuid4().hex}"
    yield path  # type: ignore[misc]
    path.unlink(missing_ok=True)


def _tool_result(request_body: dict[str, object]) -> str:
    messages = request_body["messages"]
    assert isinstance(messages, list)
    (tool,) = [m for m in messages if m.get("role") == "tool"]
    return str(tool["content"])


async def test_print_mode_bash_cannot_write_outside_and_says_why(tmp_path: Path, outside: Path) -> None:
    project = Project(tmp_path / "project", tmp_path / "home", API)
    project.root.mkdir()
    (project.home / ".ssh").mkdir(parents=True)
    (project.home / ".ssh" / "id_ed25519").write_text("PRIVATE KEY")
    command = f"echo in > inside.txt; cat ~/.ssh/id_ed25519; echo out > {outside}"
    call = ScriptedCall("call_000000001", "bash", {"command": command})
    async with server(API, [ScriptedReply(calls=[call]), ScriptedReply(text="Done.")]) as srv:
        project.configure(srv.url)
        (project.tau_home / "settings.json").write_text(json.dumps({"sandbox": {"enabled": True}}))
        result = await project.tau("-p", "--model", MODEL, "write outside")
        assert result.code == 0, result.stderr
        seen = _tool_result(srv.requests[1].json())
    assert result.stdout.strip() == "Done."
    assert (project.root / "inside.txt").read_text() == "in\n"
    assert not outside.exists()
    assert "PRIVATE KEY" not in seen and "Read-only file system" in seen
    assert "may have failed because of it" in seen and "dangerouslyDisableSandbox: true" in seen
    tools = {t["function"]["name"]: t for t in srv.requests[0].json()["tools"]}
    assert "dangerouslyDisableSandbox" in tools["bash"]["function"]["parameters"]["properties"]


async def test_without_the_setting_bash_runs_unconfined(tmp_path: Path, outside: Path) -> None:
    project = Project(tmp_path / "project", tmp_path / "home", API)
    project.root.mkdir()
    call = ScriptedCall("call_000000001", "bash", {"command": f"echo out > {outside}"})
    async with server(API, [ScriptedReply(calls=[call]), ScriptedReply(text="Done.")]) as srv:
        project.configure(srv.url)
        # yolo: Pi's behaviour, no permission mode confining commands (workspace would)
        result = await project.tau("-p", "--permission-mode", "yolo", "--model", MODEL, "write outside")
        assert result.code == 0, result.stderr
        tools = {t["function"]["name"]: t for t in srv.requests[0].json()["tools"]}
    assert outside.read_text() == "out\n"
    assert "dangerouslyDisableSandbox" not in tools["bash"]["function"]["parameters"]["properties"]


@pytest.mark.parametrize("required", [True, False])
async def test_print_mode_without_bwrap_warns_once_on_stderr(
    tmp_path: Path, outside: Path, required: bool
) -> None:
    project = Project(tmp_path / "project", tmp_path / "home", API)
    project.root.mkdir()
    (tmp_path / "bin").mkdir()
    calls = [
        ScriptedReply(calls=[ScriptedCall("call_000000001", "bash", {"command": f"echo 1 >> {outside}"})]),
        ScriptedReply(calls=[ScriptedCall("call_000000002", "bash", {"command": f"echo 2 >> {outside}"})]),
        ScriptedReply(text="Done."),
    ]
    async with server(API, calls) as srv:
        project.configure(srv.url)
        settings = {"sandbox": {"enabled": True, "required": required}}
        (project.tau_home / "settings.json").write_text(json.dumps(settings))
        env = {**project.env(), "PATH": str(tmp_path / "bin")}  # no bwrap (tau runs by its full path)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tau_coding", "-p", "--permission-mode", "yolo", "--model", MODEL, "go",
            cwd=project.root, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, err.decode()
        first = _tool_result(srv.requests[1].json())
    warnings = [line for line in err.decode().splitlines() if "Sandbox unavailable" in line]
    assert len(warnings) == 1 and "bwrap not found on PATH" in warnings[0]
    if required:
        assert not outside.exists() and "sandbox.required is true" in first
    else:
        assert outside.read_text() == "1\n2\n"


async def test_a_users_rpc_bash_is_not_confined(tmp_path: Path, outside: Path) -> None:
    project = Project(tmp_path / "project", tmp_path / "home", API)
    project.root.mkdir()
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        (project.tau_home / "settings.json").write_text(json.dumps({"sandbox": {"enabled": True}}))
        async with await RpcClient.start(["--model", MODEL], cwd=project.root, env=project.env()) as tau:
            result = await tau.bash(f"echo typed by the user > {outside}")
    assert result["exitCode"] == 0 and outside.read_text() == "typed by the user\n"
