"""The suites' independent session checker finds what it is there to find."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.crash_tau import killed_session_problems
from bench.session_rules import format_problems, in_memory_problems, session_problems, transcript_problems

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/p"}


def entry(entry_id: str, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": message,
    }


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text, "timestamp": 1}


def reply(*calls: str, text: str = "ok") -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    content += [{"type": "toolCall", "id": c, "name": "read", "arguments": {"path": "a"}} for c in calls]
    stop = "toolUse" if calls else "stop"
    return {"role": "assistant", "content": content, "stopReason": stop, "timestamp": 1}


def result(call_id: str) -> dict[str, Any]:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "read", "content": [], "timestamp": 1}


def write(path: Path, lines: list[dict[str, Any]], tail: bytes = b"") -> Path:
    path.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in [HEADER, *lines]) + tail)
    return path


def test_a_valid_session_with_a_torn_last_line_has_no_problems(tmp_path: Path) -> None:
    lines = [entry("a", None, user("hi")), entry("b", "a", reply("c1")), entry("c", "b", result("c1"))]
    path = write(tmp_path / "s.jsonl", lines, tail=b'{"type": "mess')
    assert session_problems(path) == []


def test_a_line_in_the_middle_that_is_not_json_or_hangs_under_nothing_is_found(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", [entry("a", None, user("hi")), entry("b", "zz", reply())])
    path.write_bytes(path.read_bytes().replace(b"\n", b"\nnot json\n", 1))
    assert format_problems(path) == ["line 2 is not JSON", "line 4 hangs under unknown 'zz'"]


def test_dangling_doubled_and_stray_tool_results_and_a_repeated_answer_are_found() -> None:
    messages = [user("q"), reply("c1", "c2"), result("c1"), result("c1"), result("c9"), reply(), reply()]
    assert transcript_problems(messages) == [
        "tool call c1 has 2 results",
        "a result for tool call c9 that is not open",
        "tool call c2 has no result",
        "an assistant answer is recorded twice in a row",
    ]


def test_messages_in_memory_are_checked_by_the_same_rules() -> None:
    call = ToolCall(id="c1", name="read", arguments={})
    messages = [
        UserMessage("q"),
        AssistantMessage([TextContent("x"), call], stop_reason="toolUse"),
        ToolResultMessage(tool_call_id="c1", tool_name="read"),
        AssistantMessage([call], stop_reason="toolUse"),
    ]
    assert in_memory_problems(messages) == ["tool call c1 has no result"]


def test_a_killed_session_may_miss_only_the_last_turns_result_and_nothing_finished(tmp_path: Path) -> None:
    lines = [entry("a", None, user("q")), entry("b", "a", reply("c1")), entry("c", "b", result("c1"))]
    lines.append(entry("d", "c", reply("c2")))
    path = write(tmp_path / "s.jsonl", lines)
    assert killed_session_problems(path, requests_seen=2) == []
    assert killed_session_problems(path, requests_seen=3) == [
        "3 requests were made but only 2 replies and 1 tool results are on disk"
    ]
