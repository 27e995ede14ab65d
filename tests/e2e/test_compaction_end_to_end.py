"""``tau -p`` recovers from a context overflow: compacts, retries once, and prints the answer.

The local server plays an HTTP 400 with OpenAI's context-length error as the first reply of
the second run, then the summary, then the answer, as a provider whose window was exceeded would.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from tau_agent.messages import COMPACTION_PREFIX
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tau_coding.session.compaction.prompts import SYSTEM_PROMPT
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"
OVERFLOW_BODY = json.dumps(
    {
        "error": {
            "message": "This model's maximum context length is 40000 tokens. However, your messages resulted "
            "in 41230 tokens. Please reduce the length of the messages.",
            "type": "invalid_request_error",
            "param": "messages",
            "code": "context_length_exceeded",
        }
    }
).encode()


def _project(tmp_path: Path, url: str) -> Project:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    project = Project(root, tmp_path / "home", API)
    project.tau_home.mkdir(parents=True, exist_ok=True)
    provider = {
        "baseUrl": url,
        "api": API,
        "apiKey": "test-key",
        "models": [{"id": "scripted-model", "contextWindow": 40_000, "maxTokens": 4_096}],
    }
    (project.tau_home / "models.json").write_text(json.dumps({"providers": {"scripted": provider}}))
    return project


async def test_print_mode_answers_after_an_overflow_is_compacted_and_retried(tmp_path: Path) -> None:
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_1", "read", {"path": "alpha.txt"})]),
        ScriptedReply(calls=[ScriptedCall("call_2", "read", {"path": "beta.txt"})]),
        ScriptedReply(text="Read both."),
        Scripted(400, {"content-type": "application/json"}, OVERFLOW_BODY),
        ScriptedReply(
            text="## Goal\nCompare alpha and beta.\n\n## Critical Context\nalpha ends in ALPHA-END"
        ),
        ScriptedReply(text="They differ in their last line."),
    ]
    async with server(API, replies) as srv:
        project = _project(tmp_path, srv.url)
        (project.root / "alpha.txt").write_text("alpha line\n" * 1_500 + "ALPHA-END\n")
        (project.root / "beta.txt").write_text("beta line\n" * 1_500 + "BETA-END\n")
        first = await project.tau("-p", "--model", MODEL, "Read alpha.txt and beta.txt")
        assert (first.code, first.stdout) == (0, "Read both.\n"), first.stderr
        second = await project.tau("-c", "-p", "--model", MODEL, "How do they differ?")
        assert second.code == 0, second.stderr
        assert second.stdout == "They differ in their last line.\n"
        assert "compacting and retrying" in second.stderr
        assert len(srv.requests) == 6
        summary_request = srv.requests[4].json()
        assert json.dumps(summary_request).count(SYSTEM_PROMPT[:40]) == 1
        assert "alpha line" in json.dumps(summary_request) and "Read alpha.txt" in json.dumps(summary_request)
        retried = json.dumps(srv.requests[5].json())
        assert COMPACTION_PREFIX[:40] in retried and "ALPHA-END" in retried  # via the summary
        # both reads were summarised: the provider said the context was too big, so less is kept
        assert "alpha line" not in retried and "beta line" not in retried and "Read both." in retried
        assert "How do they differ?" in retried
    [session_file] = project.session_files()
    lines = [json.loads(line) for line in session_file.read_text().splitlines()]
    kinds = [line["type"] for line in lines]
    assert kinds.count("compaction") == 1
    compaction = next(line for line in lines if line["type"] == "compaction")
    assert compaction["details"] == {"readFiles": ["alpha.txt", "beta.txt"], "modifiedFiles": []}
    errors = [
        line for line in lines if line["type"] == "message" and line["message"].get("stopReason") == "error"
    ]
    assert len(errors) == 1 and "maximum context length" in errors[0]["message"]["errorMessage"]
    last = [line for line in lines if line["type"] != "custom"][-1]  # a checkpoint entry may follow
    assert last["type"] == "message" and last["message"]["role"] == "assistant"


async def test_json_mode_reports_the_compaction_events(tmp_path: Path) -> None:
    replies = [
        ScriptedReply(calls=[ScriptedCall("call_1", "read", {"path": "alpha.txt"})]),
        ScriptedReply(text="Read it."),
        Scripted(400, {"content-type": "application/json"}, OVERFLOW_BODY),
        ScriptedReply(text="## Goal\nRead alpha."),
        ScriptedReply(text="Done."),
    ]
    async with server(API, replies) as srv:
        project = _project(tmp_path, srv.url)
        (project.root / "alpha.txt").write_text("alpha line\n" * 6_000)
        first = await project.tau("-p", "--model", MODEL, "Read alpha.txt")
        assert first.code == 0, first.stderr
        second = await project.tau("-c", "--mode", "json", "-p", "--model", MODEL, "And now?")
        assert second.code == 0, second.stderr
    events = [json.loads(line) for line in second.stdout.splitlines()]
    kinds = [e["type"] for e in events]
    start = kinds.index("compaction_start")
    end = kinds.index("compaction_end")
    assert events[start]["reason"] == "overflow"
    assert events[end]["willRetry"] is True and events[end]["result"]["tokensBefore"] > 0
    assert kinds[-1] == "agent_settled" and start < end < len(kinds) - 1


class WindowedServer(ReplayServer):
    """A provider with a 40k-token window: usage is the request's size, an oversized request
    gets the overflow error, and replies depend on the request (summary or the next read)."""

    def __init__(self, files: int, window: int) -> None:
        super().__init__(Scripted())
        self.files, self.window = files, window
        self.overflows = 0
        self.summaries = 0

    def _next(self) -> Scripted:
        request = self.requests[-1]
        tokens = len(request.body) // 4
        if tokens > self.window:
            self.overflows += 1
            return Scripted(400, {"content-type": "application/json"}, OVERFLOW_BODY)
        body = request.body.decode()
        if SYSTEM_PROMPT[:40] in body:
            self.summaries += 1
            reply = ScriptedReply(text=f"## Goal\nRead every file in order (summary {self.summaries}).")
        else:
            seen = [int(n) for n in re.findall(r"\bf(\d+)\.txt", body)]
            done = max(seen) + 1 if seen else 0
            if done < self.files:
                reply = ScriptedReply(calls=[ScriptedCall(f"call_{done}", "read", {"path": f"f{done}.txt"})])
            else:
                reply = ScriptedReply(text=f"All {self.files} files read.")
        return Scripted(body=sse_body(API, replace(reply, input_tokens=tokens)))


async def test_one_long_run_past_the_window_compacts_on_the_way_and_prints_the_answer(tmp_path: Path) -> None:
    """Pi's anchor: 16 big reads in one run against a 40k window. Tau compacts between requests,
    never sends an oversized request, and the answer is printed and kept in the session."""
    async with WindowedServer(16, 40_000) as srv:
        project = _project(tmp_path, srv.url)
        for i in range(16):
            (project.root / f"f{i}.txt").write_text(
                "".join(f"data line {k} of this file\n" for k in range(450))
            )
        result = await project.tau("-p", "--model", MODEL, "Read the sixteen files one by one, then say so.")
        assert result.code == 0, result.stderr
        assert result.stdout == "All 16 files read.\n"
        assert srv.overflows == 0 and srv.summaries >= 1
    [session_file] = project.session_files()
    lines = [json.loads(line) for line in session_file.read_text().splitlines()]
    assert sum(line["type"] == "compaction" for line in lines) == srv.summaries
    results = [
        line for line in lines if line["type"] == "message" and line["message"]["role"] == "toolResult"
    ]
    assert len(results) == 16  # every turn kept in the file
    # The answer is the last message (a threshold compaction may follow it, by the request's size).
    messages = [line["message"] for line in lines if line["type"] == "message"]
    assert messages[-1]["content"][0]["text"] == "All 16 files read."


async def test_with_compaction_disabled_in_settings_the_same_run_overflows(tmp_path: Path) -> None:
    async with WindowedServer(16, 40_000) as srv:
        project = _project(tmp_path, srv.url)
        (project.tau_home / "settings.json").write_text(json.dumps({"compaction": {"enabled": False}}))
        for i in range(16):
            (project.root / f"f{i}.txt").write_text(
                "".join(f"data line {k} of this file\n" for k in range(450))
            )
        result = await project.tau("-p", "--model", MODEL, "Read the sixteen files one by one, then say so.")
        assert result.code == 1 and "maximum context length" in result.stderr
        assert srv.overflows == 1 and srv.summaries == 0


async def test_a_small_window_runs_a_tool_loop_without_compacting_every_turn(tmp_path: Path) -> None:
    """A 16k window (a small local model) with the default settings: no compaction is needed,
    and none is tried or reported as failed on any of the turns."""
    files = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]
    replies = [
        *(
            ScriptedReply(calls=[ScriptedCall(f"call_{i}", "read", {"path": name})])
            for i, name in enumerate(files)
        ),
        ScriptedReply(text="All five read."),
    ]
    async with server(API, replies) as srv:
        project = _project(tmp_path, srv.url)
        models = json.loads((project.tau_home / "models.json").read_text())
        models["providers"]["scripted"]["models"][0]["contextWindow"] = 16_000
        (project.tau_home / "models.json").write_text(json.dumps(models))
        for name in files:
            (project.root / name).write_text(f"contents of {name}\n")
        result = await project.tau("-p", "--model", MODEL, "--max-turns", "10", "Read the five files.")
        assert (result.code, result.stdout) == (0, "All five read.\n"), result.stderr
        assert "compaction" not in result.stderr
        assert len(srv.requests) == len(files) + 1  # no summary request among them
