"""``tau -p`` against a local server standing in for Vertex AI: Gemini and Anthropic's Claude."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body


def _run(
    tmp_path: Path, model: str, env: dict[str, str], base_url: str = ""
) -> subprocess.CompletedProcess[str]:
    home = tmp_path / ".tau"
    home.mkdir(exist_ok=True)
    if base_url:
        providers = {name: {"baseUrl": base_url} for name in ("google-vertex", "google-vertex-anthropic")}
        (home / "models.json").write_text(json.dumps({"providers": providers}))
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY")
        and not k.startswith(("GOOGLE_", "GCLOUD_", "CLOUDSDK_"))
        and k != "TAU_HOME"
    }
    clean.update(HOME=str(tmp_path), TAU_HOME=str(home), **env)
    return subprocess.run(
        [sys.executable, "-m", "tau_coding", "--no-session", "-p", "--model", model, "hi"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=clean,
    )


def _serve(tmp_path: Path, api: str, model: str, env: dict[str, str]) -> tuple[str, RecordedRequest]:
    body = sse_body(api, ScriptedReply(text="hello from vertex"))
    with ReplayServerThread([Scripted(body=body)]) as server:
        out = _run(tmp_path, model, env, base_url=server.url)
        assert out.returncode == 0, out.stderr
        assert len(server.requests) == 1
        return out.stdout, server.requests[0]


def _token_env(tmp_path: Path) -> dict[str, str]:
    token = tmp_path / "token"
    token.write_text("ya29.access-token\n")
    return {
        "GOOGLE_CLOUD_PROJECT": "my-project",
        "GOOGLE_CLOUD_LOCATION": "us-central1",
        "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE": str(token),
    }


def test_gemini_on_vertex_names_project_location_and_model_with_a_bearer_token(tmp_path: Path) -> None:
    out, request = _serve(tmp_path, "google-vertex", "google-vertex/gemini-2.5-flash", _token_env(tmp_path))
    assert out == "hello from vertex\n"
    assert request.path == (
        "/v1/projects/my-project/locations/us-central1/publishers/google/models/"
        "gemini-2.5-flash:streamGenerateContent?alt=sse"
    )
    assert request.headers["authorization"] == "Bearer ya29.access-token"
    assert "x-goog-api-key" not in request.headers and "contents" in request.json()


def test_gemini_with_an_api_key_uses_vertex_express_mode(tmp_path: Path) -> None:
    out, request = _serve(
        tmp_path, "google-vertex", "google-vertex/gemini-2.5-flash", {"GOOGLE_CLOUD_API_KEY": "vertex-key"}
    )
    assert out == "hello from vertex\n"
    assert request.path == "/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    assert request.headers["x-goog-api-key"] == "vertex-key" and "authorization" not in request.headers


def test_claude_on_vertex_goes_through_stream_raw_predict(tmp_path: Path) -> None:
    model = "google-vertex-anthropic/claude-sonnet-4-5@20250929"
    out, request = _serve(tmp_path, "anthropic-vertex", model, _token_env(tmp_path))
    assert out == "hello from vertex\n"
    assert request.path == (
        "/v1/projects/my-project/locations/us-central1/publishers/anthropic/models/"
        "claude-sonnet-4-5@20250929:streamRawPredict"
    )
    assert request.headers["authorization"] == "Bearer ya29.access-token"
    body = request.json()
    assert body["anthropic_version"] == "vertex-2023-10-16" and "model" not in body
    assert "anthropic-version" not in request.headers and "x-api-key" not in request.headers


def test_a_missing_location_is_one_line(tmp_path: Path) -> None:
    env = _token_env(tmp_path)
    del env["GOOGLE_CLOUD_LOCATION"]
    out = _run(tmp_path, "google-vertex/gemini-2.5-flash", env)
    assert out.returncode != 0 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "GOOGLE_CLOUD_LOCATION" in out.stderr, out.stderr
