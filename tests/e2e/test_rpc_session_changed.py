"""An extension's session change reaches RPC clients as a ``session_changed`` event, and a
``navigate_tree`` with ``summarize`` asks ``session_before_tree``: real ``tau --mode rpc``
processes with the example extensions, a scripted model server on loopback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import configure_two_models, make_project, start
from tests.e2e.scripted_project import server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "extensions"


def _of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("type") == kind]


async def test_handoff_sends_session_changed_then_its_notice(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server("openai-completions", [ScriptedReply(text="Parsed.")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", str(EXAMPLES / "handoff.py"))
        try:
            await tau.prompt_and_wait("fix the parser")
            before = (await tau.get_state())["sessionFile"]
            events = await tau.prompt_and_wait("/handoff add tests")
            state = await tau.get_state()
            messages = await tau.get_messages()
        finally:
            assert await tau.close() == 0
    [changed] = _of(events, "session_changed")
    assert changed["reason"] == "new" and changed["sessionFile"] == state["sessionFile"] != before
    assert changed["sessionId"] == state["sessionId"] and changed["messageCount"] == 1
    assert "editorText" not in changed
    kinds = [e.get("type") if e.get("type") != "extension_ui_request" else e["method"] for e in events]
    assert kinds.index("session_changed") < kinds.index("notify")  # with_session runs after
    assert [m["role"] for m in messages] == ["custom"] and "fix the parser" in json.dumps(messages)


async def test_branch_here_sends_session_changed_with_reason_clone(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server("openai-completions", [ScriptedReply(text="First answer.")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", str(EXAMPLES / "branch_here.py"))
        try:
            await tau.prompt_and_wait("first question")
            events = await tau.prompt_and_wait("/branch-here mark")
            state = await tau.get_state()
        finally:
            assert await tau.close() == 0
    [changed] = _of(events, "session_changed")
    assert changed["reason"] == "clone" and changed["sessionFile"] == state["sessionFile"]
    assert changed["messageCount"] == 2


async def test_navigate_tree_summarize_takes_the_extensions_summary(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    replies = [ScriptedReply(text="One."), ScriptedReply(text="Two.")]  # none left for a summary
    async with server("openai-completions", replies) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", str(EXAMPLES / "branch_notes.py"))
        try:
            await tau.prompt_and_wait("first question")
            await tau.prompt_and_wait("second question")
            tree = await tau.get_tree()
            users = [e for e in tree["entries"] if e.get("role") == "user"]
            leaf = await tau.navigate_tree(users[1]["parentId"], summarize=True, label="notes")
            file = (await tau.get_state())["sessionFile"]
        finally:
            assert await tau.close() == 0
        events = [event async for event in tau.events(timeout=10)]
        asked = len(srv.requests)
    assert asked == 2  # the model wrote no summary
    entries = [json.loads(line) for line in Path(file).read_text().splitlines()]
    [summary] = [e for e in entries if e["type"] == "branch_summary"]
    assert summary["fromHook"] is True and leaf is not None
    assert summary["summary"].splitlines()[1:] == ["- asked: second question"]
    assert [(e["targetId"], e["label"]) for e in entries if e["type"] == "label"] == [
        (summary["id"], "notes")
    ]
    assert _of(events, "session_changed") == []  # the client moved it: no event for its own command
