"""Commands the model or the user runs do not see the credentials Tau itself uses."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"
SECRETS = {
    "OPENAI_API_KEY": "sk-openai-secret",
    "ANTHROPIC_API_KEY": "sk-ant-secret",
    "HF_TOKEN": "hf-secret",
    "MY_PROVIDER_KEY": "sk-models-json-secret",  # named by models.json's apiKey
}


def _project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", API)


async def _tau(project: Project, *args: str) -> tuple[int, str, str]:
    env = {**project.env(), **SECRETS, "ORDINARY_SETTING": "visible"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tau_coding", *args,
        cwd=project.root, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def _seen(project: Project) -> dict[str, str]:
    lines = (project.root / "env.txt").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


@pytest.mark.parametrize("passthrough", [None, ["OPENAI_API_KEY"]])
async def test_the_models_bash_does_not_see_provider_keys(
    tmp_path: Path, passthrough: list[str] | None
) -> None:
    project = _project(tmp_path)
    call = ScriptedCall("call_000000001", "bash", {"command": "env > env.txt"})
    async with server(API, [ScriptedReply(calls=[call]), ScriptedReply(text="Done.")]) as srv:
        project.configure(srv.url, api_key="MY_PROVIDER_KEY")
        if passthrough is not None:
            (project.tau_home / "settings.json").write_text(json.dumps({"shellEnvPassthrough": passthrough}))
        code, _, err = await _tau(project, "-p", "--permission-mode", "yolo", "--model", MODEL, "look")
        assert code == 0, err
        assert srv.requests[0].headers["authorization"] == "Bearer sk-models-json-secret"  # Tau used it
    seen = _seen(project)
    assert seen["ORDINARY_SETTING"] == "visible"
    passed = set(passthrough or ())
    assert {name for name in SECRETS if name in seen} == passed
    assert not any(
        value in (project.root / "env.txt").read_text() for n, value in SECRETS.items() if n not in passed
    )


async def test_a_users_rpc_bash_does_not_see_them_either(tmp_path: Path) -> None:
    project = _project(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url, api_key="MY_PROVIDER_KEY")
        env = {**project.env(), **SECRETS, "ORDINARY_SETTING": "visible"}
        async with await RpcClient.start(["--model", MODEL], cwd=project.root, env=env) as tau:
            result = await tau.bash("env > env.txt")
            assert result["exitCode"] == 0
    seen = _seen(project)
    assert seen["ORDINARY_SETTING"] == "visible"
    assert not set(SECRETS) & set(seen)
