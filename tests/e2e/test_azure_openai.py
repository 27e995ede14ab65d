"""``tau -p`` against a local server standing in for Azure OpenAI's Responses endpoint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body

MODEL = "azure-openai-responses/gpt-5.4"


def _run(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY") and not k.startswith("AZURE_") and k != "TAU_HOME"
    }
    base.update(HOME=str(tmp_path), TAU_HOME=str(tmp_path / ".tau"), **env)
    return subprocess.run(
        [sys.executable, "-m", "tau_coding", "--no-session", "-p", "--model", MODEL, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=base,
    )


def _serve(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], RecordedRequest]:
    body = sse_body("openai-responses", ScriptedReply(text="hello from azure"))
    with ReplayServerThread([Scripted(body=body)]) as server:
        out = _run(tmp_path, {"AZURE_OPENAI_BASE_URL": f"{server.url}/openai/v1", **env}, "hi")
        assert len(server.requests) == 1, out.stderr
        return out, server.requests[0]


def test_a_key_goes_in_the_api_key_header_to_the_mapped_deployment(tmp_path: Path) -> None:
    out, request = _serve(
        tmp_path,
        {
            "AZURE_OPENAI_API_KEY": "azure-key",
            "AZURE_OPENAI_API_VERSION": "2025-04-01-preview",
            "AZURE_OPENAI_DEPLOYMENT_NAME_MAP": "gpt-5.4=prod-gpt54, o3=o3-east",
        },
    )
    assert out.returncode == 0 and out.stdout == "hello from azure\n", out.stderr
    assert request.path == "/openai/v1/responses?api-version=2025-04-01-preview"
    assert request.headers["api-key"] == "azure-key" and "authorization" not in request.headers
    assert request.json()["model"] == "prod-gpt54"


def test_an_entra_id_token_is_a_bearer_token_and_the_defaults_apply(tmp_path: Path) -> None:
    out, request = _serve(tmp_path, {"AZURE_OPENAI_AD_TOKEN": "entra-token"})
    assert out.returncode == 0 and out.stdout == "hello from azure\n", out.stderr
    assert request.path == "/openai/v1/responses?api-version=v1"
    assert request.headers["authorization"] == "Bearer entra-token" and "api-key" not in request.headers
    assert request.json()["model"] == "gpt-5.4"


def test_without_an_endpoint_tau_says_which_variable_to_set_in_one_line(tmp_path: Path) -> None:
    out = _run(tmp_path, {"AZURE_OPENAI_API_KEY": "azure-key"}, "hi")
    assert out.returncode != 0 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "AZURE_OPENAI_BASE_URL" in out.stderr, out.stderr


def test_a_malformed_deployment_map_is_one_line(tmp_path: Path) -> None:
    env = {
        "AZURE_OPENAI_API_KEY": "k",
        "AZURE_OPENAI_RESOURCE_NAME": "res",
        "AZURE_OPENAI_DEPLOYMENT_NAME_MAP": "gpt-5.4",
    }
    out = _run(tmp_path, env, "hi")
    assert out.returncode != 0 and out.stderr.count("\n") == 1
    assert "AZURE_OPENAI_DEPLOYMENT_NAME_MAP" in out.stderr, out.stderr
