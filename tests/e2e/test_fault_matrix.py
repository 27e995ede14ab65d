"""The fault matrix's CI share: the real ``tau -p`` against a local server that fails once.

Every fault on one API (the HTTP half is shared by all five), and on the other four APIs the
faults whose shape is their own (an error event inside the stream, a cut inside a tool call's
arguments, a malformed chunk, the overflow wording). The whole matrix, every API x every fault,
is ``python bench/fault_matrix.py`` (docs/reliability.md has its latest table).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.fault_matrix import run_case

from tau_ai.testing.faults import FAULTS

OWN_SHAPES = ("overloaded-in-stream", "cut-in-tool-args", "malformed-chunk", "context-overflow")
OTHER_APIS = (
    "openai-responses",
    "azure-openai-responses",
    "google-vertex",
    "anthropic-vertex",
    "anthropic-messages",
    "google-generative-ai",
    "mistral-conversations",
    "bedrock-converse-stream",
)


@pytest.mark.parametrize("fault", FAULTS)
def test_a_run_that_meets_a_fault_once_on_openai_chat_ends_as_specified(fault: str, tmp_path: Path) -> None:
    result = run_case("openai-completions", fault, "text", tmp_path)
    assert result.ok, result.outcome


@pytest.mark.parametrize("api", OTHER_APIS)
@pytest.mark.parametrize("fault", OWN_SHAPES)
def test_a_fault_in_an_apis_own_stream_shape_ends_as_specified(api: str, fault: str, tmp_path: Path) -> None:
    result = run_case(api, fault, "text", tmp_path)
    assert result.ok, result.outcome


@pytest.mark.parametrize("fault", ("http-503", "cut-after-content"))
def test_json_mode_shows_the_retry_as_auto_retry_events(fault: str, tmp_path: Path) -> None:
    result = run_case("anthropic-messages", fault, "json", tmp_path)
    assert result.ok, result.outcome
