"""A session read leaves the cyclic collector as it found it: nothing frozen, and what was
read is not tracked (entries, messages and blocks are ``gc=False`` Structs), save the lists
inside messages, which it cannot avoid (tau_agent/session/bulk.py)."""

from __future__ import annotations

import gc
from pathlib import Path

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import MessageEntry, SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog


def write(path: Path, turns: int) -> None:
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    for i in range(turns):
        log.append_message(UserMessage(f"question {i}"))
        call = ToolCall(f"call_{i}", "read", {"path": f"f{i}.py", "lines": [1, 2]})
        log.append_message(AssistantMessage([TextContent("reading"), call], stop_reason="toolUse"))
        log.append_message(ToolResultMessage(f"call_{i}", "read", [TextContent("x = 1")]))
        log.append_model_change("p", f"m{i}")
    log.close()


def test_a_read_freezes_nothing_and_leaves_the_collector_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write(path, 50)
    frozen = gc.get_freeze_count()
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            storage = JsonlSessionStorage.open(path, read_only=True)
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
        assert len(storage.entries) == 200
        assert gc.get_freeze_count() <= frozen  # (frozen objects may die meanwhile)


def test_what_a_read_makes_is_not_tracked_but_for_content_lists(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write(path, 20)
    entries = JsonlSessionStorage.open(path, read_only=True).entries
    messages = [e.message for e in entries if isinstance(e, MessageEntry)]
    assert len(messages) == 60
    assert not any(gc.is_tracked(e) for e in entries)
    assert not any(gc.is_tracked(m) for m in messages)
    blocks = [b for m in messages if not isinstance(m.content, str) for b in m.content]
    assert blocks and not any(gc.is_tracked(b) for b in blocks)
    lists = [m.content for m in messages if isinstance(m.content, list)]
    assert len(lists) == 40 and all(gc.is_tracked(c) for c in lists)  # Python tracks every list
