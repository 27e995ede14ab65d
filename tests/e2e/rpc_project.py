"""A project for end-to-end RPC tests: two scripted models on one local server, and a client."""

from __future__ import annotations

import json
from pathlib import Path

from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.scripted_project import Project

API = "openai-completions"
MODEL = "scripted/scripted-model"


def configure_two_models(project: Project, url: str) -> None:
    """``scripted/scripted-model`` (reasoning) and ``scripted/second-model``, both at ``url``."""
    provider = {
        "baseUrl": url,
        "api": API,
        "apiKey": "test-key",
        "models": [
            {"id": "scripted-model", "reasoning": True, "contextWindow": 200000, "maxTokens": 8192},
            {"id": "second-model", "reasoning": False, "contextWindow": 100000, "maxTokens": 4096},
        ],
    }
    project.tau_home.mkdir(parents=True, exist_ok=True)
    (project.tau_home / "models.json").write_text(json.dumps({"providers": {"scripted": provider}}))


def make_project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", API)


async def start(project: Project, *args: str) -> RpcClient:
    return await RpcClient.start(["--model", MODEL, *args], cwd=project.root, env=project.env())
