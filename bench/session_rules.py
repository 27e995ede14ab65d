"""The session format's rules and a valid transcript's rules, checked independently of Tau's
own reader (plain ``json``), for the reliability suites.

Format (Pi's v3 JSONL, as tests/golden/sessions pins it): every line is one JSON object ending
in a newline; the first is the header (``type: session``, ``version``, ``id``, ``timestamp``,
``cwd``); every other line is an entry with a ``type``, a unique ``id`` and a ``parentId`` that
is null or names an earlier entry. Only the last line may be torn (a write cut short).

Transcript: on the branch that ends at the last entry, every tool call of an assistant message
has exactly one result before the next assistant or user message, no result answers a call that
was never made, and no successful assistant answer is recorded twice in a row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tau_agent.messages import AgentMessage
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.wire import message_to_dict

Json = Mapping[str, Any]


def read_entries(path: Path) -> tuple[list[Json], list[str], bool]:
    """(objects of the whole lines, format problems, whether the last line was torn)."""
    numbered, problems, torn = _numbered(path)
    return [value for _, value in numbered], problems, torn


def _numbered(path: Path) -> tuple[list[tuple[int, Json]], list[str], bool]:
    data = path.read_bytes()
    problems: list[str] = []
    lines = data.split(b"\n")
    torn = lines[-1] != b""
    body = lines[:-1]
    objects: list[tuple[int, Json]] = []
    for number, raw in enumerate(body, 1):
        try:
            value = json.loads(raw)
        except ValueError:
            problems.append(f"line {number} is not JSON")
            continue
        if not isinstance(value, dict):
            problems.append(f"line {number} is not an object")
            continue
        objects.append((number, value))
    if torn:
        try:  # a whole entry that lacks only its newline is not a loss
            value = json.loads(lines[-1])
            if isinstance(value, dict):
                objects.append((len(lines), value))
        except ValueError:
            pass
    return objects, problems, torn


def format_problems(path: Path) -> list[str]:
    """What breaks the session format's rules in the file at ``path`` (empty: none)."""
    objects, problems, _ = _numbered(path)
    if not objects:
        return [*problems, "no header"] if path.stat().st_size else problems
    (_, header), *entries = objects
    if header.get("type") != "session" or not isinstance(header.get("id"), str):
        problems.append("the first line is not a session header")
    if header.get("version") != 3:
        problems.append(f"header version {header.get('version')!r}, not 3")
    seen: set[str] = set()
    for number, entry in entries:
        entry_id, parent = entry.get("id"), entry.get("parentId")
        if not isinstance(entry.get("type"), str) or not isinstance(entry_id, str):
            problems.append(f"line {number} has no type or id")
            continue
        if entry_id in seen:
            problems.append(f"line {number} repeats id {entry_id}")
        if parent is not None and parent not in seen:
            problems.append(f"line {number} hangs under unknown {parent!r}")
        if not isinstance(entry.get("timestamp"), str):
            problems.append(f"line {number} has no timestamp")
        seen.add(entry_id)
    return problems


def branch_messages(entries: Sequence[Json]) -> list[Json]:
    """The messages on the branch that ends at the last entry, oldest first."""
    by_id = {e.get("id"): e for e in entries}
    path: list[Json] = []
    current = entries[-1] if entries else None
    while current is not None and len(path) <= len(entries):
        path.append(current)
        current = by_id.get(current.get("parentId"))
    return [e["message"] for e in reversed(path) if e.get("type") == "message" and "message" in e]


def transcript_problems(messages: Iterable[Json]) -> list[str]:
    """What makes a transcript (wire dicts, camelCase) invalid for the next request."""
    problems: list[str] = []
    open_calls: dict[str, int] = {}
    answered: set[str] = set()
    previous_answer: Any = None

    def close_turn() -> None:
        for call_id, count in open_calls.items():
            if count == 0:
                problems.append(f"tool call {call_id} has no result")
        open_calls.clear()

    for message in messages:
        role = message.get("role")
        if role == "toolResult":
            call_id = message.get("toolCallId")
            if call_id not in open_calls:
                kind = "a second" if call_id in answered else "a"
                problems.append(f"{kind} result for tool call {call_id} that is not open")
                continue
            open_calls[call_id] += 1
            answered.add(call_id)
            if open_calls[call_id] > 1:
                problems.append(f"tool call {call_id} has {open_calls[call_id]} results")
            continue
        if role not in ("assistant", "user"):
            continue
        close_turn()
        if role == "user":
            previous_answer = None
            continue
        content = message.get("content") or []
        for block in content:
            if block.get("type") == "toolCall":
                open_calls[block.get("id")] = 0
        if message.get("stopReason") in ("stop", "toolUse", "length"):
            if content and content == previous_answer:
                problems.append("an assistant answer is recorded twice in a row")
            previous_answer = content
    close_turn()
    return problems


def in_memory_problems(messages: Iterable[AgentMessage]) -> list[str]:
    """``transcript_problems`` of messages held in memory (Tau's types)."""
    return transcript_problems(message_to_dict(m) for m in messages)


def session_problems(path: Path) -> list[str]:
    """Every problem of the session file at ``path``: format, Tau's reader, the transcript."""
    problems = format_problems(path)
    try:
        with JsonlSessionStorage.open(path, read_only=True) as storage:
            problems += [f"Tau's reader: {w}" for w in storage.warnings if "incomplete" not in w]
    except Exception as exc:  # any refusal is a finding, reported as such
        problems.append(f"Tau's reader refused the file: {exc!r}")
    objects, _, _ = read_entries(path)
    problems += transcript_problems(branch_messages(objects[1:]))
    return problems
