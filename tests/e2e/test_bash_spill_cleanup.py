"""The full-output logs of bash commands do not outlive the ``tau`` process that wrote them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"


@pytest.mark.parametrize("mode", ["print", "rpc"])
async def test_spill_files_are_removed_when_tau_exits(tmp_path: Path, mode: str) -> None:
    root, temp = tmp_path / "project", tmp_path / "tmp"
    root.mkdir()
    temp.mkdir()
    project = Project(root, tmp_path / "home", API)
    call = ScriptedCall("call_000000001", "bash", {"command": "seq 1 100000"})
    async with server(API, [ScriptedReply(calls=[call]), ScriptedReply(text="Counted.")]) as srv:
        project.configure(srv.url)
        env_project = _with_tmpdir(project, temp)
        if mode == "print":
            result = await env_project.tau("-p", "--model", MODEL, "count")
            assert result.code == 0, result.stderr
        else:
            commands = json.dumps({"type": "bash", "command": "seq 1 100000"}) + "\n"
            result = await env_project.tau("--mode", "rpc", "--model", MODEL, stdin=commands)
            assert '"fullOutputPath"' in result.stdout, result.stdout[-2000:]
    if mode == "print":
        (session,) = project.session_files()
        assert "tau-bash-" in session.read_text()  # a log was written, and named to the model
    assert [p.name for p in temp.iterdir() if p.name.startswith("tau-bash-")] == []


class _TmpdirProject(Project):
    temp: Path

    def env(self) -> dict[str, str]:
        return {**super().env(), "TMPDIR": str(self.temp)}


def _with_tmpdir(project: Project, temp: Path) -> Project:
    moved = _TmpdirProject(project.root, project.home, project.api)
    moved.temp = temp
    return moved
