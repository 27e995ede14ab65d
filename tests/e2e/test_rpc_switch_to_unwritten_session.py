"""``switch_session`` to a session whose file is not written yet (Tau, as Pi, writes a new
session's file with its first reply), against the real ``tau --mode rpc`` process."""

from __future__ import annotations

import json
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server


async def test_switching_back_to_an_unwritten_fork_continues_it(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    replies = [ScriptedReply(text="One."), ScriptedReply(text="Again.")]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        tau = await start(project)
        await tau.prompt_and_wait("first question")
        original = (await tau.get_state())["sessionFile"]
        first = (await tau.get_fork_messages())[0]["entryId"]
        assert await tau.fork(first) == "first question"  # holds nothing yet: no file
        fork = (await tau.get_state())["sessionFile"]
        assert fork != original and not Path(fork).exists()
        await tau.set_session_name("draft")

        await tau.switch_session(original)
        assert (await tau.get_state())["messageCount"] == 2
        await tau.switch_session(fork)
        state = await tau.get_state()
        assert (state["sessionFile"], state["sessionName"], state["messageCount"]) == (fork, "draft", 0)

        await tau.prompt_and_wait("a new start")  # the first reply writes the fork's file
        lines = [json.loads(line) for line in Path(fork).read_text().splitlines()]
        assert lines[0]["type"] == "session" and lines[0]["parentSession"] == original
        names = [e.get("name") for e in lines if e["type"] == "session_info"]
        assert names == ["draft"]
        messages = [e["message"] for e in lines if e["type"] == "message"]
        assert [m["role"] for m in messages] == ["user", "assistant"]
        assert "a new start" in json.dumps(messages[0]) and "Again." in json.dumps(messages[1])
        assert await tau.close() == 0


async def test_switching_to_a_path_with_no_file_starts_a_session_there_as_pi_does(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="Fresh.")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        target = tmp_path / "elsewhere" / "planned.jsonl"
        await tau.switch_session(target)
        state = await tau.get_state()
        assert (state["sessionFile"], state["messageCount"]) == (str(target), 0)
        assert not target.exists()
        await tau.prompt_and_wait("hello")
        entries = [json.loads(line) for line in target.read_text().splitlines()]
        assert entries[0]["type"] == "session"
        assert [e["message"]["role"] for e in entries if e["type"] == "message"] == ["user", "assistant"]
        assert await tau.close() == 0
