"""Claude Code's contract for ``transcript_path``: the file exists whenever a hook runs, from
``SessionStart`` on, in a real ``tau`` subprocess; without hooks a new session's file still
waits for its first reply, as in Pi."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import MODEL, Project, server

# Records, for each hook run, its event, the path it was given and whether a session header is there.
PROBE = """#!/usr/bin/env python3
import json, os, sys
data = json.load(sys.stdin)
path = data["transcript_path"]
header = ""
if os.path.isfile(path):
    with open(path) as f:
        header = json.loads(f.readline()).get("type", "")
with open(os.environ["PROBE_LOG"], "a") as log:
    log.write(json.dumps([data["hook_event_name"], path, header]) + "\\n")
"""


def _hooked(project: Project, tmp_path: Path) -> Path:
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    probe.chmod(0o755)
    group = [{"hooks": [{"type": "command", "command": str(probe)}]}]
    settings = {"hooks": {"SessionStart": group, "UserPromptSubmit": group}}
    project.tau_home.mkdir(parents=True, exist_ok=True)
    (project.tau_home / "settings.json").write_text(json.dumps(settings))
    return tmp_path / "probe.log"


def _runs(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


async def test_session_start_hooks_find_the_transcript_file_in_print_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path)
    log = _hooked(project, tmp_path)
    monkeypatch.setenv("PROBE_LOG", str(log))
    async with server(API, [ScriptedReply(text="Hi.")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "hello")
    assert result.code == 0, result.stderr
    runs = _runs(log)
    assert [r[0] for r in runs] == ["SessionStart", "UserPromptSubmit"]
    assert all(r[1] and r[2] == "session" for r in runs), runs  # there, and a session file
    assert runs[0][1] == runs[1][1]


async def test_hooks_of_a_new_session_over_rpc_find_its_file_before_the_reply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path)
    log = _hooked(project, tmp_path)
    monkeypatch.setenv("PROBE_LOG", str(log))
    async with server(API, [ScriptedReply(text="One."), ScriptedReply(text="Two.")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        first = (await tau.get_state())["sessionFile"]
        await tau.prompt_and_wait("hello")
        assert await tau.new_session() is True
        second = (await tau.get_state())["sessionFile"]
        await tau.prompt_and_wait("again")
        assert await tau.close() == 0
    runs = _runs(log)
    # /new starts a new conversation: SessionStart runs again (source "clear"), before the prompt
    assert [r[0] for r in runs] == ["SessionStart", "UserPromptSubmit", "SessionStart", "UserPromptSubmit"]
    assert [r[1] for r in runs] == [first, first, second, second] and first != second
    assert [r[2] for r in runs] == ["session"] * 4, runs


async def test_without_hooks_a_session_file_still_waits_for_the_first_reply(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="unused")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        path = Path((await tau.get_state())["sessionFile"])
        assert await tau.close() == 0
    assert not path.exists()
