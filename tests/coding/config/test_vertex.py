"""Vertex settings from the environment, and application-default credentials through a seam."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_ai.model import Model
from tau_coding.config.vertex import VertexConfigError, vertex_bearer, vertex_model

_GEMINI = Model(id="gemini-2.5-pro", api="google-vertex", provider="google-vertex", base_url="https://x")


def test_project_and_location_come_from_the_environment() -> None:
    env = {"GCLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "europe-west4"}
    assert vertex_model(_GEMINI, env).compat == {"vertexProject": "p", "vertexLocation": "europe-west4"}
    with pytest.raises(VertexConfigError, match="GOOGLE_CLOUD_PROJECT"):
        vertex_model(_GEMINI, {"GOOGLE_CLOUD_LOCATION": "us-central1"})
    # An API key (express mode) needs neither; the global location is then implied.
    assert vertex_model(_GEMINI, {}, with_key=True).compat == {"vertexLocation": "global"}


def test_other_apis_models_are_left_alone() -> None:
    other = Model(id="gemini-2.5-pro", api="google-generative-ai", provider="google", base_url="https://x")
    assert vertex_model(other, {}) is other


def test_a_token_comes_from_gclouds_file_else_application_default_credentials(tmp_path: Path) -> None:
    calls: list[int] = []

    def fetch() -> str:
        calls.append(1)
        return "adc-token"

    token = tmp_path / "token"
    token.write_text("file-token\n")
    assert vertex_bearer({"CLOUDSDK_AUTH_ACCESS_TOKEN_FILE": str(token)}, fetch) == "Bearer file-token"
    assert vertex_bearer({}, fetch) is None and calls == []  # Vertex not set up: not even asked
    assert vertex_bearer({"GOOGLE_CLOUD_PROJECT": "p"}, fetch) == "Bearer adc-token" and calls == [1]
    with pytest.raises(VertexConfigError, match="cannot read"):
        vertex_bearer({"CLOUDSDK_AUTH_ACCESS_TOKEN_FILE": str(tmp_path / "missing")}, fetch)
