from __future__ import annotations

import time
from pathlib import Path

import pytest

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, CompactionSummaryMessage, UserMessage
from tau_agent.session.entries import CustomEntry, LabelEntry, SessionHeader, is_leaf_marker
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog, branch_entries
from tau_agent.session.state import visible_entries
from tau_agent.session.storage import InMemorySessionStorage


def open_log(path: Path) -> SessionLog:
    return SessionLog(JsonlSessionStorage.open(path, fsync="never"))


def started(path: Path) -> SessionLog:
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    log.append_message(UserMessage("first"))
    log.append_message(AssistantMessage([TextContent("one")]))
    log.append_message(UserMessage("second"))
    log.append_message(AssistantMessage([TextContent("two")]))
    return log


def user_texts(log: SessionLog) -> list[str]:
    return [m.content for m in log.state().messages if isinstance(m, UserMessage)]  # type: ignore[misc]


def test_a_navigation_followed_by_quitting_is_restored_on_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = started(path)
    first_reply = log.entries[1].id
    log.navigate(first_reply)
    log.close()
    again = open_log(path)
    assert again.leaf_id == first_reply
    assert user_texts(again) == ["first"]
    reply = again.append_message(UserMessage("instead"))
    assert reply.parent_id == first_reply  # the next entry hangs on the chosen entry, not the marker
    again.close()
    third = open_log(path)
    assert user_texts(third) == ["first", "instead"]
    third.close()


def test_navigation_to_before_the_first_entry_is_restored_as_an_empty_context(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = started(path)
    log.navigate(None)
    log.close()
    again = open_log(path)
    assert again.leaf_id is None and again.state().messages == []
    assert again.append_message(UserMessage("fresh start")).parent_id is None
    again.close()


def test_navigating_to_the_current_leaf_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = started(path)
    size = path.stat().st_size
    log.navigate(log.leaf_id)
    assert path.stat().st_size == size
    log.navigate(log.entries[0].id)
    log.navigate(log.entries[3].id)  # back to what the file ends with: a marker again, pointing there
    log.close()
    assert open_log(path).leaf_id == log.entries[3].id


def test_leaf_markers_are_hidden_from_tree_views_and_reserved() -> None:
    log = SessionLog(InMemorySessionStorage(SessionHeader.new("/p")))
    log.append_message(UserMessage("a"))
    log.append_message(UserMessage("b"))
    log.navigate(log.entries[0].id)
    assert is_leaf_marker(log.entries[-1])
    assert len(visible_entries(log.entries)) == 2
    with pytest.raises(ValueError, match="reserved"):
        log.append_custom("tau.leaf")
    with pytest.raises(KeyError, match="no entry"):
        log.navigate("missing")


def test_labels_and_name_are_tracked_and_survive_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = started(path)
    target = log.entries[0].id
    log.set_label(target, " start ")
    log.set_name("My work")
    with pytest.raises(ValueError, match="empty"):
        log.set_name("  ")
    with pytest.raises(KeyError):
        log.set_label("missing", "x")
    assert log.labels == {target: "start"}
    log.close()
    again = open_log(path)
    assert (again.labels, again.name) == ({target: "start"}, "My work")
    again.set_label(target, None)
    assert again.labels == {}
    again.close()


def test_compaction_is_replayed_after_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = started(path)
    kept = log.entries[2].id
    log.append_compaction("first exchange", kept, 500)
    log.append_message(UserMessage("third"))
    log.close()
    messages = open_log(path).state().messages
    assert isinstance(messages[0], CompactionSummaryMessage) and messages[0].summary == "first exchange"
    assert [m.content for m in messages[1:] if isinstance(m, UserMessage)] == ["second", "third"]


def test_branch_entries_copy_the_path_without_labels_or_markers_and_relabel_at_the_end() -> None:
    log = SessionLog(InMemorySessionStorage(SessionHeader.new("/p")))
    a = log.append_message(UserMessage("a"))
    b = log.append_message(AssistantMessage([TextContent("b")]))
    log.set_label(a.id, "start")
    log.append_message(UserMessage("c"))
    log.navigate(b.id)
    copied = branch_entries(log, b.id)
    assert [e.id for e in copied[:2]] == [a.id, b.id]
    label = copied[2]
    assert isinstance(label, LabelEntry) and (label.target_id, label.label, label.parent_id) == (
        a.id,
        "start",
        b.id,
    )
    assert not any(isinstance(e, CustomEntry) for e in copied)
    assert branch_entries(log, None) == []


def test_summaries_must_go_through_their_own_entries() -> None:
    log = SessionLog(InMemorySessionStorage(SessionHeader.new("/p")))
    with pytest.raises(TypeError):
        log.append_message(CompactionSummaryMessage("s"))


def test_a_10k_entry_session_opens_and_replays_quickly(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    for i in range(5_000):
        log.append_message(UserMessage(f"question {i} " + "x" * 200))
        log.append_message(AssistantMessage([TextContent(f"answer {i} " + "y" * 200)]))
    log.close()
    start = time.perf_counter()
    again = open_log(path)
    state = again.state()
    elapsed = time.perf_counter() - start
    again.close()
    assert len(state.messages) == 10_000
    assert elapsed < 1.0  # about 0.05 s on a quiet 2-core machine; Pi takes 0.16 s


def test_a_fork_past_a_label_keeps_every_message_on_the_path(tmp_path: Path) -> None:
    # The label entry is dropped from the copy (a fresh one is made at its end), so the message
    # that followed it must hang from the entry before it, or replay stops at the gap.
    log = started(tmp_path / "source.jsonl")
    first = next(e for e in log.entries if e.parent_id is None)
    log.set_label(first.id, "start")
    log.append_message(UserMessage("third"))
    last = log.append_message(AssistantMessage([TextContent("three")]))
    copied = branch_entries(log, last.id)
    ids = {e.id for e in copied}
    assert all(e.parent_id is None or e.parent_id in ids for e in copied)
    forked = SessionLog(
        JsonlSessionStorage.create_from(tmp_path / "fork.jsonl", SessionHeader.new("/p"), copied)
    )
    forked.close()
    reopened = open_log(tmp_path / "fork.jsonl")
    assert user_texts(reopened) == ["first", "second", "third"]
    assert reopened.labels == {first.id: "start"}
