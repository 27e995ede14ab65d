"""``tau -p`` against a local server whose replies break after they started: retried and answered.

Each case is a real subprocess talking HTTP to a ReplayServer; the settings file sets short
backoffs so the retries are quick.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import APIS, ScriptedCall, ScriptedReply, sse_body
from tests.e2e.scripted_project import MODEL, Project, server

ANSWER = ScriptedReply(chunks=("The answer ", "is 42."))
PARTIAL = ScriptedReply(chunks=("Thinking it over: ", "the answer might be"))


def _project(tmp_path: Path, api: str, retry: dict[str, object]) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", api)
    project.tau_home.mkdir(parents=True, exist_ok=True)
    (project.tau_home / "settings.json").write_text(json.dumps({"retry": retry}))
    return project


def _cut_after_first_text(api: str) -> Scripted:
    body = sse_body(api, PARTIAL)
    return Scripted(body=body, cut_after=body.index(b"the answer might") - 1)


def _session_entries(project: Project) -> list[dict[str, Any]]:
    (path,) = project.session_files()
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


@pytest.mark.parametrize("api", APIS)
async def test_a_cut_after_text_is_retried_and_the_answer_printed_once(tmp_path: Path, api: str) -> None:
    project = _project(tmp_path, api, {"baseDelayMs": 10})
    async with server(api, [_cut_after_first_text(api), ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert (result.code, result.stdout) == (0, "The answer is 42.\n"), result.stderr
    assert "retrying in" in result.stderr and "(1/3)" in result.stderr
    assert len(srv.requests) == 2
    assert "might be" not in json.dumps(srv.requests[1].json())  # the partial reply is not resent
    replies = [
        e["message"]
        for e in _session_entries(project)
        if e["type"] == "message" and e["message"]["role"] == "assistant"
    ]
    assert [r["stopReason"] for r in replies] == ["error", "stop"]


async def test_a_cut_inside_a_tool_calls_arguments_is_retried(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"baseDelayMs": 10})
    (project.root / "notes.txt").write_text("secret: PAPAYA\n")
    calling = ScriptedReply(text="Reading.", calls=[ScriptedCall("call_1", "read", {"path": "notes.txt"})])
    body = sse_body(api, calling)
    cut = Scripted(body=body, cut_after=body.index(b"notes") + 2)
    async with server(api, [cut, calling, ScriptedReply(text="It is PAPAYA.")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the secret?")
    assert (result.code, result.stdout) == (0, "It is PAPAYA.\n"), result.stderr
    assert len(srv.requests) == 3
    entries = _session_entries(project)
    calls = [
        block["id"]
        for e in entries
        if e["type"] == "message" and e["message"]["role"] == "assistant"
        for block in e["message"]["content"]
        if block["type"] == "toolCall"
    ]
    results = [
        e["message"]["toolCallId"]
        for e in entries
        if e["type"] == "message" and e["message"]["role"] == "toolResult"
    ]
    assert sorted(calls) == sorted(results)  # the cut call was closed in the file too


async def test_an_overloaded_event_after_text_is_retried(tmp_path: Path) -> None:
    api = "anthropic-messages"
    project = _project(tmp_path, api, {"baseDelayMs": 10})
    body = sse_body(api, PARTIAL)
    head = body[: body.index(b"the answer might")]
    head = head[: head.rindex(b"event:")]
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    broken = head + b"event: error\ndata: " + json.dumps(error).encode() + b"\n\n"
    async with server(api, [Scripted(body=broken), ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert (result.code, result.stdout) == (0, "The answer is 42.\n"), result.stderr
    assert "Overloaded" in result.stderr and "retrying in" in result.stderr


async def test_a_malformed_chunk_is_retried(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"baseDelayMs": 10})
    async with server(api, [Scripted(body=b"data: {not json at all\n\n"), ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert (result.code, result.stdout) == (0, "The answer is 42.\n"), result.stderr
    assert "malformed" in result.stderr.lower() and "retrying in" in result.stderr


async def test_json_mode_shows_the_retry_as_events(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"baseDelayMs": 10})
    async with server(api, [_cut_after_first_text(api), ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--mode", "json", "--model", MODEL, "What is the answer?")
    assert result.code == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()[1:]]
    kinds = [e["type"] for e in events]
    start, end = kinds.index("auto_retry_start"), kinds.index("auto_retry_end")
    assert start < end and kinds.count("auto_retry_start") == kinds.count("auto_retry_end") == 1
    assert events[start]["attempt"] == 1 and events[start]["maxAttempts"] == 3
    assert events[end] == {"type": "auto_retry_end", "success": True, "attempt": 1}
    finals = [
        e["message"] for e in events if e["type"] == "message_end" and e["message"]["role"] == "assistant"
    ]
    assert [m["stopReason"] for m in finals] == ["error", "stop"]
    assert kinds[-1] == "agent_settled"


async def test_retry_disabled_in_settings_lets_the_failure_stand(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"enabled": False})
    async with server(api, [_cut_after_first_text(api), ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert result.code == 1 and len(srv.requests) == 1
    assert "retrying" not in result.stderr


async def test_provider_max_retries_zero_sends_one_request(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"enabled": False, "provider": {"maxRetries": 0}})
    async with server(api, [Scripted(503, body=b"busy"), ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert result.code == 1 and len(srv.requests) == 1
    assert "HTTP 503" in result.stderr


async def test_a_failure_the_provider_gave_up_on_is_not_retried_again_by_the_session(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"baseDelayMs": 10, "provider": {"maxRetries": 1}})
    busy = Scripted(503, {"retry-after": "0"}, b"busy")
    async with server(api, [busy, busy, busy, ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert result.code == 1 and len(srv.requests) == 2, result.stderr  # one request, one HTTP retry
    assert result.stderr.count("retrying in") == 1 and "(1/1)" in result.stderr


async def test_a_server_delay_beyond_max_retry_delay_fails_at_once(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"enabled": False, "provider": {"maxRetryDelayMs": 1000}})
    async with server(api, [Scripted(429, {"retry-after": "30"}, b"slow down"), ANSWER]) as srv:
        project.configure(srv.url)
        began = time.monotonic()
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert result.code == 1 and len(srv.requests) == 1
    assert time.monotonic() - began < 20  # not the 30 s the server asked for
    assert "HTTP 429" in result.stderr


async def test_provider_timeout_ends_a_stall_and_the_turn_is_retried(tmp_path: Path) -> None:
    api = "openai-completions"
    project = _project(tmp_path, api, {"baseDelayMs": 10, "provider": {"timeoutMs": 300}})
    body = sse_body(api, PARTIAL)
    stalled = Scripted(body=body, stall_after=body.index(b"the answer might") - 1)
    async with server(api, [stalled, ANSWER]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "What is the answer?")
    assert (result.code, result.stdout) == (0, "The answer is 42.\n"), result.stderr
    assert "0.3s; the stream stalled" in result.stderr
