"""What a small local model gets wrong, through the real ``tau`` against a local Chat Completions
server: each mistake gets exactly one result per call sent back, the run goes on, and the
session file resumes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", API)
    return project


def _chat(*deltas: dict[str, Any], finish: str) -> Scripted:
    """A Chat Completions stream of exactly these deltas, as a host sends them raw."""
    chunks = [
        {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": d}]} for d in deltas
    ]
    chunks.append(
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
        }
    )
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    return Scripted(body=body.encode())


def _call(index: int, call_id: str, name: str, arguments: str) -> dict[str, Any]:
    function = {"name": name, "arguments": arguments}
    return {"tool_calls": [{"index": index, "id": call_id, "type": "function", "function": function}]}


def _sent_back(request_body: dict[str, Any]) -> tuple[list[str], list[tuple[str, str]]]:
    """The call ids of the last assistant message with calls, and the (id, text) of its results."""
    messages = request_body["messages"]
    last = max(i for i, m in enumerate(messages) if m.get("tool_calls"))
    calls = [c["id"] for c in messages[last]["tool_calls"]]
    after = messages[last + 1 :]
    results = [(m["tool_call_id"], m["content"]) for m in after[: len(calls) + 1] if m["role"] == "tool"]
    return calls, results


async def _one_call_then(
    project: Project, call: dict[str, Any], finish: str, answer: str
) -> tuple[list[str], list[tuple[str, str]]]:
    """``tau -p`` whose model sends the one ``call`` (ending with ``finish``), then ``answer``:
    the run, and the calls and results the second request sent back."""
    async with server(API, [_chat(call, finish=finish), ScriptedReply(text=answer)]) as srv:
        project.configure(srv.url)
        project.run_everything()
        result = await project.tau("-p", "--model", MODEL, "go")
        calls, results = _sent_back(srv.requests[1].json())
    assert (result.code, result.stdout) == (0, answer + "\n"), result.stderr
    return calls, results


async def test_a_write_cut_by_the_output_limit_writes_nothing_and_the_run_goes_on(project: Project) -> None:
    cut = _call(0, "w1", "write", '{"path": "big.py", "content": "def main():\\n    print(1)\\n    pri')
    calls, results = await _one_call_then(project, cut, "length", "sorry")
    assert not (project.root / "big.py").exists()  # a cut file is not written
    assert calls == ["w1"] and len(results) == 1
    assert results[0][1].startswith("Tool call not run: the reply reached its output token limit")


async def test_arguments_that_are_not_json_run_nothing_and_tell_the_model_why(project: Project) -> None:
    cut = _call(0, "b1", "bash", '{"command": "touch made.txt; rm -rf buil')
    _, results = await _one_call_then(project, cut, "tool_calls", "retrying")
    assert not (project.root / "made.txt").exists()  # the repaired prefix did not run
    assert len(results) == 1 and results[0][1].startswith(
        "Tool call not run: its arguments are not valid JSON"
    )
    assert results[0][1].endswith('Received:\n{"command": "touch made.txt; rm -rf buil')


async def test_calls_sharing_one_id_each_get_their_own_and_one_result(project: Project) -> None:
    (project.root / "a.txt").write_text("AAA")
    twice = [_call(i, "dup", "read", '{"path": "a.txt"}') for i in range(2)]
    async with server(API, [_chat(*twice, finish="tool_calls"), ScriptedReply(text="read twice")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "read it")
        calls, results = _sent_back(srv.requests[1].json())
    assert (result.code, result.stdout) == (0, "read twice\n"), result.stderr
    assert len(set(calls)) == 2 and calls[0] == "dup"
    assert [r[0] for r in results] == calls and all(text == "AAA" for _, text in results)
    async with server(API, [ScriptedReply(text="resumed")]) as srv:  # the session file resumes
        project.configure(srv.url)
        resumed = await project.tau("-p", "--model", MODEL, "-c", "again")
        calls_again, results_again = _sent_back(srv.requests[0].json())
    assert (resumed.code, resumed.stdout) == (0, "resumed\n"), resumed.stderr
    assert (calls_again, results_again) == (calls, results)


@pytest.mark.parametrize(
    ("deltas", "line"),
    [
        ((), "tau: the model sent an empty reply"),
        (({"reasoning_content": "thinking only"},), "tau: the model's reply held only reasoning, no answer"),
        (({"content": "half an ans"},), "tau: the reply hit the output limit"),
    ],
)
async def test_a_reply_with_nothing_to_read_is_one_line_on_stderr(
    project: Project, deltas: tuple[dict[str, Any], ...], line: str
) -> None:
    finish = "length" if line.endswith("limit") else "stop"
    async with server(API, [_chat(*deltas, finish=finish)]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "hard question")
    assert result.code == 0 and result.stderr == line + "\n", result.stderr
