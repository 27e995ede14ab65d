"""Subagents from the command line: ``tau -p`` whose model starts children with ``task``.

One local server plays the parent and every child (tests/e2e/subagent_script.py). The children
of one reply run at once, their reports come back in the order of the calls, the parent's
context holds the reports and nothing else of the children, a failing child is a tool error,
and the session file keeps every child's transcript and counts each child's usage once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tau_agent.session.entries import CustomEntry
from tau_agent.session.reader import read_session
from tau_agent.session.stats import session_stats
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.session.store.export import export_session
from tests.e2e.scripted_project import MODEL, Project
from tests.e2e.subagent_script import API, CHILD_MARK, Child, Script


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", API)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _tool_results(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        line["message"]
        for line in lines
        if line.get("type") == "message" and line["message"]["role"] == "toolResult"
    ]


def _text(message: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in message["content"])


async def test_parallel_children_report_in_call_order_and_only_reports_reach_the_parent(
    project: Project,
) -> None:
    (project.root / "alpha.txt").write_text("SECRET-ALPHA-CONTENT\n")
    slow = Child(
        "find alpha",
        ScriptedReply(text="Reading.", calls=[ScriptedCall("c_read", "read", {"path": "alpha.txt"})]),
        ScriptedReply(text="alpha report: the file holds the secret"),
        delay=0.4,
    )
    fast = Child("find beta", ScriptedReply(text="beta report: nothing there"))
    script = Script([slow, fast])
    async with ReplayServer(script.responder(), keep_alive=True) as server:
        project.configure(server.url)
        result = await project.tau("-p", "--model", MODEL, "Investigate alpha and beta")
        assert result.code == 0, result.stderr
        assert result.stdout == "All reports are in.\n"
        bodies = [json.dumps(r.json()) for r in server.requests]

    kinds = ["child" if CHILD_MARK in b else "parent" for b in bodies]
    assert kinds.count("parent") == 2 and kinds.count("child") == 3
    # The fast child asked (and finished) while the slow one was still on its first reply.
    fast_at = next(i for i, b in enumerate(bodies) if CHILD_MARK in b and "find beta" in b)
    slow_second = max(i for i, b in enumerate(bodies) if CHILD_MARK in b and "find alpha" in b)
    assert fast_at < slow_second
    final = bodies[-1]
    assert "alpha report" in final and "beta report" in final
    assert "SECRET-ALPHA-CONTENT" not in final and "Reading." not in final

    (session,) = project.session_files()
    lines = _lines(session)
    results = _tool_results(lines)
    assert [r["toolCallId"] for r in results] == ["call_task_1", "call_task_2"]
    assert _text(results[0]).startswith("alpha report") and _text(results[1]).startswith("beta report")
    transcripts = [line for line in lines if line.get("customType") == "tau.subagent"]
    assert sorted(t["data"]["toolCallId"] for t in transcripts) == ["call_task_1", "call_task_2"]
    slow_record = next(t["data"] for t in transcripts if t["data"]["toolCallId"] == "call_task_1")
    roles = [m["role"] for m in slow_record["messages"]]
    assert roles == ["user", "assistant", "toolResult", "assistant"]
    assert "SECRET-ALPHA-CONTENT" in json.dumps(slow_record["messages"])

    # Five replies of 100 input and 20 output tokens each: two the parent's, three the children's.
    stats = session_stats(read_session(session.read_bytes()).entries)
    assert (stats.spent.input, stats.spent.output) == (500, 100)


async def test_a_failing_child_is_a_tool_error_and_the_parent_goes_on(project: Project) -> None:
    broken = Child("find gamma", Scripted(status=400, headers={}, body=b'{"error": "bad request"}'))
    fine = Child("find delta", ScriptedReply(text="delta report"))
    script = Script([broken, fine], final="One failed, one reported.")
    async with ReplayServer(script.responder(), keep_alive=True) as server:
        project.configure(server.url)
        result = await project.tau("-p", "--model", MODEL, "Investigate gamma and delta")
        assert result.code == 0, result.stderr
        assert result.stdout == "One failed, one reported.\n"
    (session,) = project.session_files()
    results = _tool_results(_lines(session))
    assert [r["isError"] for r in results] == [True, False]
    assert _text(results[0]).startswith("Subagent general-purpose failed:")
    assert results[0]["details"]["error"]
    assert _text(results[1]) == "delta report"


async def test_the_session_reopens_with_every_childs_transcript(project: Project) -> None:
    script = Script([Child("find one", ScriptedReply(text="one report"))], final="Done once.")
    async with ReplayServer(script.responder(), keep_alive=True) as server:
        project.configure(server.url)
        first = await project.tau("-p", "--model", MODEL, "Go")
        assert first.code == 0, first.stderr
        again = await project.tau("-c", "-p", "--model", MODEL, "Go again")
        assert again.code == 0, again.stderr
        assert again.stdout == "Done once.\n"
    (session,) = project.session_files()
    loaded = read_session(session.read_bytes())
    customs = [e for e in loaded.entries if isinstance(e, CustomEntry) and e.custom_type == "tau.subagent"]
    assert len(customs) == 2
    page = export_session(session, project.root / "out.html").read_text()
    assert page.count('<details class="transcript">') == 2
    assert "general-purpose · job 1" in page and "one report" in page


async def test_a_read_only_explorer_gets_only_the_search_tools(project: Project) -> None:
    script = Script([Child("look around", ScriptedReply(text="explored"))], agent="explorer")
    async with ReplayServer(script.responder(), keep_alive=True) as server:
        project.configure(server.url)
        result = await project.tau("-p", "--model", MODEL, "Explore")
        assert result.code == 0, result.stderr
        child = next(r.json() for r in server.requests if CHILD_MARK in json.dumps(r.json()))
        parent = server.requests[0].json()
    assert sorted(t["function"]["name"] for t in child["tools"]) == ["find", "grep", "ls", "read"]
    assert {"task", "todo"} <= {t["function"]["name"] for t in parent["tools"]}


async def test_slash_agents_lists_built_in_user_and_claude_code_definitions(project: Project) -> None:
    (project.tau_home / "agents").mkdir(parents=True)
    (project.tau_home / "agents" / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Glob\n---\nReview.\n"
    )
    (project.home / ".claude" / "agents").mkdir(parents=True)
    (project.home / ".claude" / "agents" / "broken.md").write_text("---\nthinking: loud\n---\nx\n")
    project.configure("http://127.0.0.1:9")  # no request is made
    result = await project.tau("-p", "--model", MODEL, "/agents")
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(" — ")[0].strip() for line in lines if " — " in line] == [
        "general-purpose",
        "explorer",
        "reviewer",
    ]
    assert "tools: read, find;" in result.stdout
    assert "broken.md" in result.stderr and "skipped" in result.stderr
