"""Resuming a session with the real ``tau`` command: its model and thinking level come back.

The project has two reasoning models; ``scripted-model`` is the one Tau picks when nothing
names a model, so a session run with ``second-model`` shows whether resume restores it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.rpc_project import API, make_project
from tests.e2e.scripted_project import Project, server

SECOND = "scripted/second-model"


def _configure(project: Project, url: str) -> None:
    models = [
        {"id": "scripted-model", "reasoning": True, "contextWindow": 200000, "maxTokens": 8192},
        {"id": "second-model", "reasoning": True, "contextWindow": 100000, "maxTokens": 4096},
    ]
    provider = {"baseUrl": url, "api": API, "apiKey": "test-key", "models": models}
    project.tau_home.mkdir(parents=True, exist_ok=True)
    (project.tau_home / "models.json").write_text(json.dumps({"providers": {"scripted": provider}}))


def _entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def _settings_entries(entries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for entry in entries:
        if entry["type"] == "model_change":
            out.append(("model", entry["modelId"]))
        elif entry["type"] == "thinking_level_change":
            out.append(("thinking", entry["thinkingLevel"]))
    return out


async def test_continue_restores_the_model_and_thinking_level_and_records_nothing(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="One."), ScriptedReply(text="Two.")]) as srv:
        _configure(project, srv.url)
        first = await project.tau("-p", "--model", SECOND, "--thinking", "high", "first")
        assert first.code == 0, first.stderr
        [file] = project.session_files()
        before = _entries(file)
        second = await project.tau("-c", "-p", "second")
        assert second.code == 0, second.stderr
        body = srv.requests[1].json()
        assert (body["model"], body.get("reasoning_effort")) == ("second-model", "high")
    after = _entries(file)
    assert after[: len(before)] == before
    assert _settings_entries(after[len(before) :]) == []


async def test_an_explicit_model_on_resume_wins_and_is_recorded_once(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    replies = [ScriptedReply(text="One."), ScriptedReply(text="Two."), ScriptedReply(text="Three.")]
    async with server(API, replies) as srv:
        _configure(project, srv.url)
        assert (await project.tau("-p", "--model", SECOND, "first")).code == 0
        [file] = project.session_files()
        before = len(_entries(file))
        switched = await project.tau(
            "-c", "-p", "--model", "scripted/scripted-model", "--thinking", "low", "two"
        )
        assert switched.code == 0, switched.stderr
        assert srv.requests[1].json()["model"] == "scripted-model"
        assert _settings_entries(_entries(file)[before:]) == [
            ("model", "scripted-model"),
            ("thinking", "low"),
        ]
        again = await project.tau("-c", "-p", "three")
        assert again.code == 0, again.stderr
        body = srv.requests[2].json()
        assert (body["model"], body.get("reasoning_effort")) == ("scripted-model", "low")
    assert _settings_entries(_entries(file)[before:]) == [("model", "scripted-model"), ("thinking", "low")]


async def test_read_only_rpc_commands_leave_a_resumed_session_file_unchanged(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="One.")]) as srv:
        _configure(project, srv.url)
        assert (await project.tau("-p", "--model", SECOND, "--thinking", "high", "first")).code == 0
        [file] = project.session_files()
        before = file.read_bytes()
        tau = await RpcClient.start(["-c"], cwd=project.root, env=project.env())
        state = await tau.get_state()
        assert (state["model"]["id"], state["thinkingLevel"]) == ("second-model", "high")
        await tau.get_messages()
        await tau.get_tree()
        await tau.get_session_stats()
        assert await tau.close() == 0
    assert file.read_bytes() == before


async def test_switch_session_restores_that_sessions_model(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="One."), ScriptedReply(text="Two.")]) as srv:
        _configure(project, srv.url)
        assert (await project.tau("-p", "--model", SECOND, "--thinking", "medium", "first")).code == 0
        [old] = project.session_files()
        before = old.read_bytes()
        tau = await RpcClient.start([], cwd=project.root, env=project.env())
        assert (await tau.get_state())["model"]["id"] == "scripted-model"
        await tau.request("reload")  # the reloaded session still restores what it switches to
        await tau.switch_session(old)
        state = await tau.get_state()
        assert (state["model"]["id"], state["thinkingLevel"]) == ("second-model", "medium")
        assert old.read_bytes() == before
        await tau.prompt_and_wait("second")
        assert srv.requests[-1].json()["model"] == "second-model"
        assert await tau.close() == 0
    added = _entries(old)[len(before.splitlines()) - 1 :]
    assert _settings_entries(added) == []


async def test_a_model_named_on_the_command_line_wins_on_every_switch_as_in_pi(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="One."), ScriptedReply(text="Two.")]) as srv:
        _configure(project, srv.url)
        assert (await project.tau("-p", "--model", SECOND, "--thinking", "medium", "first")).code == 0
        [old] = project.session_files()
        before = len(_entries(old))
        tau = await RpcClient.start(
            ["--model", "scripted/scripted-model"], cwd=project.root, env=project.env()
        )
        await tau.switch_session(old)
        state = await tau.get_state()
        assert (state["model"]["id"], state["thinkingLevel"]) == ("scripted-model", "medium")
        await tau.prompt_and_wait("second")
        assert srv.requests[-1].json()["model"] == "scripted-model"
        assert await tau.close() == 0
    assert _settings_entries(_entries(old)[before:]) == [("model", "scripted-model")]


async def test_a_recorded_model_that_is_gone_is_named_and_the_default_is_used(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="One."), ScriptedReply(text="Two.")]) as srv:
        _configure(project, srv.url)
        assert (await project.tau("-p", "--model", SECOND, "first")).code == 0
        models = json.loads((project.tau_home / "models.json").read_text())
        del models["providers"]["scripted"]["models"][1]
        (project.tau_home / "models.json").write_text(json.dumps(models))
        resumed = await project.tau("-c", "-p", "second")
        assert resumed.code == 0, resumed.stderr
        assert resumed.stderr == (
            "tau: warning: could not restore the session's model scripted/second-model (unknown or no API key); "
            "using scripted/scripted-model\n"
        )
        assert srv.requests[-1].json()["model"] == "scripted-model"
