"""The full-output logs of bash commands do not outlive the ``tau`` process that wrote them."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"


def _setup(tmp_path: Path) -> tuple[Project, Path]:
    root, temp = tmp_path / "project", tmp_path / "tmp"
    root.mkdir()
    temp.mkdir()
    return Project(root, tmp_path / "home", API), temp


def _logs(temp: Path) -> list[str]:
    return [p.name for p in temp.iterdir() if p.name.startswith("tau-bash-")]


async def test_spill_files_of_a_print_run_are_removed_when_tau_exits(tmp_path: Path) -> None:
    project, temp = _setup(tmp_path)
    call = ScriptedCall("call_000000001", "bash", {"command": "seq 1 100000"})
    async with server(API, [ScriptedReply(calls=[call]), ScriptedReply(text="Counted.")]) as srv:
        project.configure(srv.url)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tau_coding", "-p", "--permission-mode", "yolo", "--model", MODEL, "count",
            cwd=project.root, env={**project.env(), "TMPDIR": str(temp)},
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, err.decode()
    (session,) = project.session_files()
    assert "tau-bash-" in session.read_text()  # a log was written, and named to the model
    assert _logs(temp) == []


async def test_spill_files_of_an_rpc_server_are_removed_when_it_exits(tmp_path: Path) -> None:
    project, temp = _setup(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        env = {**project.env(), "TMPDIR": str(temp)}
        tau = await RpcClient.start(["--model", MODEL], cwd=project.root, env=env)
        result = await tau.bash("seq 1 100000")
        assert result["truncated"] and Path(result["fullOutputPath"]).parent == temp
        assert _logs(temp) != []  # kept while the server runs: the model may read it
        assert await tau.close() == 0
    assert _logs(temp) == []
