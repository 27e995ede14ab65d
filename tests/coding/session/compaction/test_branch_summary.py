"""Leaving a branch of the session tree can summarise the abandoned path where work resumes."""

from __future__ import annotations

from pathlib import Path

from tau_agent.messages import BRANCH_PREFIX, BranchSummaryMessage, UserMessage
from tau_agent.session.entries import BranchSummaryEntry, MessageEntry, SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_agent.session.tree import SessionTree
from tau_coding.session.compaction.branch import abandoned_entries, branch_messages
from tests.coding.session.compaction.scripted import ScriptedModel, drain, make_session, write_turn_files


def _user_entry(log: SessionLog, text: str) -> MessageEntry:
    return next(
        e
        for e in log.path()
        if isinstance(e, MessageEntry) and isinstance(e.message, UserMessage) and e.message.content == text
    )


async def test_navigating_away_records_a_summary_of_the_abandoned_path(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 5)
    model = ScriptedModel()
    session, _ = make_session(tmp_path, model)
    for turn in range(4):
        await drain(session.prompt(f"turn t{turn}"))
    old_leaf = session.log.leaf_id
    target = _user_entry(session.log, "turn t2").parent_id  # back to the end of turn t1
    entry = await session.navigate(target, summarize=True, custom_instructions="what was read")
    assert isinstance(entry, BranchSummaryEntry) and entry.parent_id == target and entry.from_id == target
    request = model.summary_requests[-1]
    assert "turn t2" in request and "turn t3" in request and "turn t1" not in request
    assert "what was read" in request
    assert entry.details == {"readFiles": ["t2.txt", "t3.txt"], "modifiedFiles": []}
    assert "<read-files>\nt2.txt\nt3.txt\n</read-files>" in entry.summary
    assert isinstance(session.messages[-1], BranchSummaryMessage)
    await drain(session.prompt("turn t4"))
    sent = model.agent_contexts[-2].messages
    assert any(isinstance(m, UserMessage) and str(m.content).startswith(BRANCH_PREFIX) for m in sent)
    assert not any(isinstance(m, UserMessage) and m.content == "turn t3" for m in sent)
    assert old_leaf in session.log.tree  # the old branch is still in the file
    path = session.session_file
    assert path is not None
    session.close()
    reopened = SessionLog(JsonlSessionStorage.open(path)).state()
    assert any(isinstance(m, BranchSummaryMessage) for m in reopened.messages)


async def test_navigating_without_summary_only_moves(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 3)
    model = ScriptedModel()
    session, _ = make_session(tmp_path, model)
    for turn in range(3):
        await drain(session.prompt(f"turn t{turn}"))
    target = _user_entry(session.log, "turn t1").id
    assert await session.navigate(target) is None
    assert not model.summary_requests
    last = session.messages[-1]
    assert isinstance(last, UserMessage) and last.content == "turn t1"


def test_the_abandoned_path_stops_at_the_common_ancestor() -> None:
    log = SessionLog(
        InMemorySessionStorage(SessionHeader(id="s", timestamp="2026-01-01T00:00:00.000Z", cwd="/tmp"))
    )
    a = log.append_message(UserMessage("a"))
    b = log.append_message(UserMessage("b"))
    c = log.append_message(UserMessage("c"))
    log.navigate(a.id)
    d = log.append_message(UserMessage("d"))
    tree = SessionTree(log.entries)
    assert [e.id for e in abandoned_entries(tree, c.id, d.id)] == [b.id, c.id]
    assert [e.id for e in abandoned_entries(tree, d.id, c.id)] == [d.id]
    assert abandoned_entries(tree, a.id, c.id) == []


def test_branch_messages_keep_the_newest_within_budget() -> None:
    from tau_agent.session.entries import MessageEntry as Entry

    entries = [Entry(id=f"e{i}", parent_id=None, message=UserMessage("x" * 400)) for i in range(10)]
    kept = branch_messages(entries, 350)
    assert len(kept) == 3
