"""Claude Code fires ``SessionStart`` again for every new conversation context, with a ``source``
that says why: in a real ``tau --mode rpc`` subprocess, ``/new`` is ``clear``, a switch and a
fork are ``resume``, a compaction is ``compact``; each finds its transcript file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server

# Appends its stdin (and whether the transcript file is there) to $HOOK_LOG, one JSON a line.
RECORDER = """#!/usr/bin/env python3
import json, os, sys
data = json.load(sys.stdin)
data["transcript_exists"] = os.path.isfile(data["transcript_path"])
with open(os.environ["HOOK_LOG"], "a") as log:
    log.write(json.dumps(data) + "\\n")
"""


async def _wait_for_lines(log: Path, count: int) -> list[dict[str, object]]:
    """SessionStart hooks of a change run as tasks; wait (a bounded while) until they wrote."""
    for _ in range(500):
        if log.exists() and len(lines := log.read_text().splitlines()) >= count:
            return [json.loads(line) for line in lines]
        await asyncio.sleep(0.02)
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


async def test_session_start_hooks_fire_for_clear_resume_fork_and_compact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path)
    recorder = tmp_path / "recorder.py"
    recorder.write_text(RECORDER)
    recorder.chmod(0o755)
    settings = {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": str(recorder)}]}]}}
    project.tau_home.mkdir(parents=True, exist_ok=True)
    (project.tau_home / "settings.json").write_text(json.dumps(settings))
    log = tmp_path / "hooks.log"
    monkeypatch.setenv("HOOK_LOG", str(log))
    replies = [ScriptedReply(text="One."), ScriptedReply(text="Two."), ScriptedReply(text="## Goal\nSum.")]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        tau = await start(project)
        first = (await tau.get_state())["sessionFile"]
        await tau.prompt_and_wait("hello")
        assert [r["source"] for r in await _wait_for_lines(log, 1)] == ["startup"]

        assert await tau.new_session() is True
        second = (await tau.get_state())["sessionFile"]
        runs = await _wait_for_lines(log, 2)
        await tau.prompt_and_wait("again")

        await tau.switch_session(first)
        runs = await _wait_for_lines(log, 3)

        entry = (await tau.get_fork_messages())[0]["entryId"]
        await tau.fork(entry)
        forked = (await tau.get_state())["sessionFile"]
        runs = await _wait_for_lines(log, 4)

        await tau.switch_session(second)
        response = await tau.request_response("compact")
        assert response["success"] is True, response
        runs = await _wait_for_lines(log, 6)
        assert await tau.close() == 0

    assert [r["source"] for r in runs] == ["startup", "clear", "resume", "resume", "resume", "compact"]
    assert [r["transcript_path"] for r in runs] == [first, second, first, forked, second, second]
    assert all(r["hook_event_name"] == "SessionStart" and r["transcript_exists"] for r in runs), runs
    assert len({first, second, forked}) == 3
