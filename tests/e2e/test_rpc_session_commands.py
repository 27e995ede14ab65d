"""Every session-level RPC command against the real ``tau --mode rpc`` process."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.sdk.rpc_client import RpcError
from tau_coding.session.coding_session import CodingSession
from tests.e2e.rpc_project import API, configure_two_models, make_project, start
from tests.e2e.scripted_project import server


async def test_models_thinking_and_queue_modes(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project)
        models = await tau.get_available_models()
        ours = [m["id"] for m in models if m["provider"] == "scripted"]
        assert ours == ["scripted-model", "second-model"]
        second = await tau.set_model("scripted", "second-model")
        assert (second["id"], second["contextWindow"], second["baseUrl"]) == ("second-model", 100000, srv.url)
        assert (await tau.get_state())["model"]["id"] == "second-model"
        with pytest.raises(RpcError, match="Model not found: scripted/missing"):
            await tau.set_model("scripted", "missing")
        cycled = await tau.request("cycle_model")
        assert cycled["model"]["id"] != "second-model" and cycled["isScoped"] is False
        await tau.set_model("scripted", "scripted-model")
        assert await tau.request("cycle_thinking_level") == {"level": "minimal"}
        await tau.set_thinking_level("high")
        assert await tau.request("cycle_thinking_level") == {"level": "off"}
        await tau.set_model("scripted", "second-model")
        assert await tau.request("cycle_thinking_level") is None  # not a reasoning model
        await tau.request("set_steering_mode", mode="all")
        await tau.request("set_follow_up_mode", mode="all")
        state = await tau.get_state()
        assert (state["steeringMode"], state["followUpMode"]) == ("all", "all")
        await tau.prompt_and_wait("hello")
        body = srv.requests[-1].json()
        assert body["model"] == "second-model"
        assert await tau.close() == 0


async def test_bash_output_reaches_the_next_prompt_and_abort_bash_stops_a_command(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="Seen it.")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        result = await tau.bash("echo from-the-user")  # Pi's output: as written, newline kept
        assert result == {"output": "from-the-user\n", "exitCode": 0, "cancelled": False, "truncated": False}
        assert (await tau.bash("true"))["output"] == ""
        marker = project.root / "started"
        await tau.send(
            {"id": "slow", "type": "bash", "command": f"echo early; touch {marker}; sleep 10; echo late"}
        )
        await _until(marker.exists)
        await tau.request("abort_bash")
        slow = await tau.wait_for("response")
        assert slow[-1]["id"] == "slow", slow
        # Pi's abort: the output so far, cancelled, and no exit code at all
        assert slow[-1]["data"] == {"output": "early\n", "cancelled": True, "truncated": False}, slow
        await tau.prompt_and_wait("What did I run?")
        assert "Ran `echo from-the-user`" in json.dumps(srv.requests[0].json())
        assert await tau.close() == 0


async def _until(ready: Callable[[], bool], limit: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + limit
    while not ready():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_fork_tree_labels_names_export_and_switching(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="One."), ScriptedReply(text="Two.")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        await tau.prompt_and_wait("first question")
        await tau.prompt_and_wait("second question")
        original = (await tau.get_state())["sessionFile"]
        await tau.set_session_name("feature work")
        assert (await tau.get_state())["sessionName"] == "feature work"
        with pytest.raises(RpcError, match="non-empty"):
            await tau.set_session_name("")

        forks = await tau.get_fork_messages()
        assert [f["text"] for f in forks] == ["first question", "second question"]
        tree = await tau.get_tree()
        ids = {e["id"] for e in tree["entries"]}
        assert forks[1]["entryId"] in ids and tree["leafId"] in ids
        await tau.set_label(forks[0]["entryId"], "start")
        labelled = [e for e in (await tau.get_tree())["entries"] if e.get("label") == "start"]
        assert [e["id"] for e in labelled] == [forks[0]["entryId"]]

        exported = await tau.export_html(str(tmp_path / "out" / "session.html"))
        page = Path(exported).read_text()
        assert "second question" in page and "Two." in page

        assert await tau.fork(forks[1]["entryId"]) == "second question"
        state = await tau.get_state()
        assert state["sessionFile"] != original and state["messageCount"] == 2
        assert [m["role"] for m in await tau.get_messages()] == ["user", "assistant"]
        forked_file = Path(state["sessionFile"])
        header = json.loads(forked_file.read_text().splitlines()[0])
        assert header["parentSession"] == original

        await tau.switch_session(original)
        assert (await tau.get_state())["messageCount"] == 4
        first_user = forks[0]["entryId"]
        assert await tau.navigate_tree(first_user) == first_user
        assert [m["role"] for m in await tau.get_messages()] == ["user"]
        assert await tau.navigate_tree(None) is None
        assert await tau.get_messages() == []

        listed = await tau.list_sessions()
        assert {s["path"] for s in listed} == {original, str(forked_file)}
        assert any(s.get("name") == "feature work" for s in listed)
        assert len(await tau.list_sessions(everywhere=True)) == 2

        assert await tau.new_session() is True
        fresh = await tau.get_state()
        assert fresh["messageCount"] == 0 and fresh["sessionFile"] not in (original, str(forked_file))
        assert await tau.get_last_assistant_text() is None
        assert await tau.close() == 0


async def test_commands_reload_and_features_that_may_be_absent(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    prompts = project.root / ".tau" / "prompts"
    prompts.mkdir(parents=True)
    (prompts / "review.md").write_text("---\ndescription: Review the code\n---\nReview $1\n")
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        commands = (await tau.request("get_commands"))["commands"]
        init = next(c for c in commands if c["name"] == "init")  # what Tau ships
        assert (init["location"], init["sourceInfo"]["source"], init["sourceInfo"]["scope"]) == (
            "builtin",
            "builtin",
            "user",
        )
        assert [c for c in commands if c is not init] == [
            {
                "name": "review",
                "description": "Review the code",
                "source": "prompt",
                "location": "project",
                "path": str(prompts / "review.md"),
                "sourceInfo": {
                    "path": str(prompts / "review.md"),
                    "source": "auto",
                    "scope": "project",
                    "origin": "top-level",
                },
            }
        ]
        (prompts / "fix.md").write_text("---\ndescription: Fix it\n---\nFix $1\n")
        await tau.request("reload")
        names = [c["name"] for c in (await tau.request("get_commands"))["commands"]]
        assert sorted(names) == ["fix", "init", "review"]
        await tau.prompt_and_wait("/fix main.py")
        assert "Fix main.py" in json.dumps(srv.requests[0].json())
        assert (await tau.get_state())["messageCount"] == 2  # reload kept the conversation

        await tau.request("abort_retry")
        for command, fields, feature in (
            ("compact", {}, "compact"),
            ("set_auto_compaction", {"enabled": False}, "set_auto_compaction"),
            ("get_context_usage", {}, "context_usage"),
            ("set_auto_retry", {"enabled": False}, "set_auto_retry"),
        ):
            response = await tau.request_response(command, **fields)
            assert hasattr(CodingSession, feature)
            # compact: two short messages are compacted keeping both, as Pi does
            assert response["success"] is True, response
        assert await tau.close() == 0


async def test_clone_fork_messages_of_every_branch_and_context_usage(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    replies = [ScriptedReply(text="One."), ScriptedReply(text="Two."), ScriptedReply(text="Three.")]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        tau = await start(project)
        await tau.prompt_and_wait("first question")
        await tau.prompt_and_wait("second question")
        forks = await tau.get_fork_messages()
        await tau.navigate_tree(forks[0]["entryId"])  # back to the first question ...
        await tau.navigate_tree(None)
        await tau.prompt_and_wait("another start")  # ... and a second branch from the root
        texts = [f["text"] for f in await tau.get_fork_messages()]
        assert texts == ["first question", "second question", "another start"]  # every branch

        markdown = Path(await tau.export_html(str(tmp_path / "talk.md"))).read_text()
        assert "another start" in markdown and "<html" not in markdown  # .md: Markdown, as /export x.md

        stats = await tau.get_session_stats()
        usage = stats["contextUsage"]
        assert usage["contextWindow"] == 200000 and usage["tokens"] > 0
        assert usage["percent"] == round(100 * usage["tokens"] / 200000, 1)
        assert stats["userMessages"] == 3  # over the whole file

        original = (await tau.get_state())["sessionFile"]
        before = Path(original).read_bytes()
        await tau.clone()
        state = await tau.get_state()
        assert state["sessionFile"] != original and state["messageCount"] == 2
        assert [m["role"] for m in await tau.get_messages()] == ["user", "assistant"]
        assert Path(original).read_bytes() == before
        header = json.loads(Path(state["sessionFile"]).read_text().splitlines()[0])
        assert header["parentSession"] == original
        assert await tau.close() == 0
