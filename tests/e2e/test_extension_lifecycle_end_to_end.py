"""Lifecycle powers through a real ``tau`` process: an async ``session_before_switch`` refusing
over RPC, ``session_shutdown``'s reason and target, a ``message_end`` replacement and
``after_provider_response`` in print mode, and a whole compaction made by an extension."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tau_ai.testing.replay_server import SSE_HEADERS, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.rpc_project import API, configure_two_models, make_project, start
from tests.e2e.scripted_project import MODEL, Project, server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "extensions"

SHUTDOWN_LOG = """
import json, pathlib

def activate(tau):
    @tau.on("session_shutdown")
    def leave(event):
        with (pathlib.Path(tau.cwd) / "shutdowns.jsonl").open("a") as out:
            out.write(json.dumps([event.reason, event.target_session_file]) + "\\n")
"""


async def _answer_confirm(tau: RpcClient, confirmed: bool) -> dict[str, Any]:
    for _ in range(200):
        event = await tau.next_event()
        if event.get("type") == "extension_ui_request" and event.get("method") == "confirm":
            await tau.send({"type": "extension_ui_response", "id": event["id"], "confirmed": confirmed})
            return event
    raise AssertionError("no confirm request arrived")


async def test_an_async_handler_asking_the_rpc_client_cancels_or_lets_a_new_session_go(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path)
    recorder = tmp_path / "shutdown_log.py"
    recorder.write_text(SHUTDOWN_LOG)
    async with server(API, [ScriptedReply(text="Hello there.")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", str(EXAMPLES / "confirm_leave.py"), "-e", str(recorder))
        try:
            await tau.prompt_and_wait("hi")
            first = (await tau.get_state())["sessionFile"]
            refused = asyncio.ensure_future(tau.request("new_session"))
            request = await _answer_confirm(tau, False)
            assert request["title"] == "Start a new session?"
            assert await asyncio.wait_for(refused, 30) == {"cancelled": True}
            assert (await tau.get_state())["sessionFile"] == first  # still there
            assert not (project.root / "shutdowns.jsonl").exists()
            agreed = asyncio.ensure_future(tau.request("new_session"))
            await _answer_confirm(tau, True)
            assert await asyncio.wait_for(agreed, 30) == {"cancelled": False}
            second = (await tau.get_state())["sessionFile"]
            assert second != first
        finally:
            assert await tau.close() == 0
    lines = [json.loads(line) for line in (project.root / "shutdowns.jsonl").read_text().splitlines()]
    assert lines == [["new", second], ["quit", None]]


REPLACE_REPLY = """
import msgspec
from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage
from tau_coding.extensions import MessagePatch

def activate(tau):
    @tau.on("message_end")
    async def sign(event):
        if isinstance(event.message, AssistantMessage):
            signed = event.message.text + " -- checked"
            return MessagePatch(msgspec.structs.replace(event.message, content=[TextContent(signed)]))
        return None
"""


async def test_print_mode_records_a_replaced_reply_and_logs_the_response_headers(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", "openai-completions")
    signer = tmp_path / "signer.py"
    signer.write_text(REPLACE_REPLY)
    body = sse_body("openai-completions", ScriptedReply(text="All good."))
    answer = Scripted(
        200, {**SSE_HEADERS, "x-request-id": "req-42", "x-ratelimit-remaining-tokens": "999"}, body
    )
    async with server(project.api, [answer]) as srv:
        project.configure(srv.url)
        result = await project.tau(
            "-p", "-e", str(signer), "-e", str(EXAMPLES / "response_logger.py"), "--model", MODEL, "check"
        )
    assert result.code == 0, result.stderr
    assert result.stdout == "All good. -- checked\n"
    [session_file] = project.session_files()
    replies = [
        json.loads(line)["message"]
        for line in session_file.read_text().splitlines()
        if '"assistant"' in line and '"message"' in line
    ]
    assert [r["content"][0]["text"] for r in replies] == ["All good. -- checked"]
    [logged] = [
        json.loads(line) for line in (root / ".tau" / "provider-responses.jsonl").read_text().splitlines()
    ]
    assert (logged["status"], logged["provider"], logged["model"]) == (200, "scripted", "scripted-model")
    assert logged["headers"] == {"x-request-id": "req-42", "x-ratelimit-remaining-tokens": "999"}


BAD_COMPACTION = """
from tau_coding.extensions import CompactDecision, CompactionResult

def activate(tau):
    @tau.on("session_before_compact")
    async def wrong(event):
        return CompactDecision(compaction=CompactionResult("never recorded", "not-an-entry", 0))
"""


async def test_rpc_compact_records_the_extension_compaction_or_reports_a_bad_one(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    bad = tmp_path / "bad_compaction.py"
    bad.write_text(BAD_COMPACTION)
    replies = [ScriptedReply(text=f"answer {n}") for n in (1, 2, 3)]
    replies += [ScriptedReply(text="answer 4"), ScriptedReply(text="## Goal\nTau's own summary")]
    async with server(API, replies) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", str(EXAMPLES / "keep_last_compaction.py"))
        try:
            for n in (1, 2, 3):
                await tau.prompt_and_wait(f"question {n}")
            result = await tau.request("compact")
            assert result["summary"].splitlines()[1:] == ["- user: question 1", "- assistant: answer 1"]
            assert result["details"] == {"keptMessages": 4, "by": "keep_last_compaction"}
            session_file = (await tau.get_state())["sessionFile"]
        finally:
            assert await tau.close() == 0
        entries = [json.loads(line) for line in Path(session_file).read_text().splitlines()]
        [compaction] = [e for e in entries if e.get("type") == "compaction"]
        kept = next(e for e in entries if e.get("message", {}).get("content") == "question 2")
        assert compaction["firstKeptEntryId"] == kept["id"] and compaction["fromHook"] is True
        assert len(srv.requests) == 3  # no model wrote that summary

        tau = await start(project, "--session", session_file, "-e", str(bad))
        try:
            await tau.prompt_and_wait("question 4")
            result = await tau.request("compact")
            assert "Tau's own summary" in result["summary"]
        finally:
            assert await tau.close() == 0
            stderr = await tau.stderr_text()
        assert len(srv.requests) == 5  # Tau asked the model instead
    [line] = [line for line in stderr.splitlines() if "compaction not used" in line]
    assert "'not-an-entry' is not a message of the current context; Tau compacts instead" in line


ASYNC_REFUSAL = """
import asyncio
from tau_coding.extensions import CompactDecision

def activate(tau):
    @tau.on("session_before_compact")
    async def refuse(event):
        await asyncio.sleep(0.01)
        return CompactDecision(cancel=True)
"""


async def test_print_mode_counts_an_async_handler_refusing_the_overflow_compaction(tmp_path: Path) -> None:
    from tests.e2e.test_compaction_end_to_end import OVERFLOW_BODY, _project

    refusal = tmp_path / "refusal.py"
    refusal.write_text(ASYNC_REFUSAL)
    replies = [
        ScriptedReply(text="Noted."),
        Scripted(400, {"content-type": "application/json"}, OVERFLOW_BODY),
    ]
    async with server(API, replies) as srv:
        project = _project(tmp_path, srv.url)
        first = await project.tau("-p", "--model", MODEL, "remember this")
        assert first.code == 0, first.stderr
        second = await project.tau("-c", "-p", "-e", str(refusal), "--model", MODEL, "And now?")
        assert len(srv.requests) == 2  # no summary was asked for, no retry was sent
    assert second.code != 0 and "maximum context length" in second.stderr
    [session_file] = project.session_files()
    assert '"compaction"' not in session_file.read_text()
