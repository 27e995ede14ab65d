from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage, SessionLockedError
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_coding.session.store.listing import read_session_info
from tau_coding.session.store.manager import SessionManager, SessionNotFoundError
from tau_coding.session.store.paths import request_checkpoint_path


def manager(root: Path, cwd: str = "/work/proj") -> SessionManager:
    return SessionManager(root, cwd, fsync="never")


def chat(log: SessionLog, *prompts: str) -> SessionLog:
    for prompt in prompts:
        log.append_message(UserMessage(prompt))
        log.append_message(AssistantMessage([TextContent(f"re: {prompt}")]))
    return log


def test_new_sessions_live_in_the_cwd_folder_and_appear_with_their_first_reply(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    log = sessions.new()
    log.append_message(UserMessage("hello"))
    assert not sessions.directory.exists()
    log.append_message(AssistantMessage([TextContent("hi")]))
    log.close()
    (info,) = sessions.list_cwd()
    assert info.path.parent == tmp_path / "--work-proj--"
    assert info.path.name.endswith(f"_{log.header.id}.jsonl")
    assert (info.id, info.cwd, info.message_count, info.first_message) == (
        log.header.id,
        "/work/proj",
        2,
        "hello",
    )


def test_listing_reads_name_first_prompt_and_count_and_skips_non_sessions(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    log = chat(sessions.new(), "fix the bug", "and the test")
    log.set_name("Bug hunt")
    log.set_name("Bug hunt, day 2")
    log.close()
    (sessions.directory / "junk.jsonl").write_text("not json\n")
    (sessions.directory / "notes.txt").write_text("x")
    (info,) = sessions.list_cwd()
    assert (info.name, info.title, info.first_message, info.message_count) == (
        "Bug hunt, day 2",
        "Bug hunt, day 2",
        "fix the bug",
        4,
    )
    assert read_session_info(sessions.directory / "junk.jsonl") is None


def test_continue_recent_opens_the_latest_session_or_starts_one(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    fresh = sessions.continue_recent()
    assert isinstance(fresh.storage, JsonlSessionStorage) and not fresh.storage.on_disk
    old = chat(sessions.new(), "old")
    old.close()
    newer = chat(sessions.new(), "newer")
    newer.close()
    os.utime(old.storage.path, (time.time() - 100, time.time() - 100))  # type: ignore[attr-defined]
    resumed = sessions.continue_recent()
    assert resumed.header.id == newer.header.id
    assert [m.content for m in resumed.state().messages if isinstance(m, UserMessage)] == ["newer"]
    resumed.close()


def test_open_by_path_or_unique_id_prefix_from_any_project(tmp_path: Path) -> None:
    here = manager(tmp_path)
    elsewhere = manager(tmp_path, "/other/project")
    mine = chat(here.new(), "mine")
    mine.close()
    theirs = chat(elsewhere.new(), "theirs")
    theirs.close()
    by_prefix = here.open(theirs.header.id[:8])
    assert by_prefix.header.id == theirs.header.id and here.is_foreign(by_prefix)
    by_prefix.close()
    by_path = here.open(mine.storage.path)  # type: ignore[attr-defined]
    assert not here.is_foreign(by_path)
    with pytest.raises(SessionLockedError):
        here.open(mine.header.id)
    by_path.close()
    with pytest.raises(SessionNotFoundError, match="no session with id"):
        here.open("ffffffffffff")
    with pytest.raises(SessionNotFoundError, match="no session given"):
        here.open("")
    for suffix in ("1", "2"):
        header = SessionHeader(id=f"abcdef{suffix}", timestamp="2025-01-01T00:00:00.000Z", cwd="/work/proj")
        chat(SessionLog(JsonlSessionStorage.create(here.directory / f"{suffix}.jsonl", header)), "x").close()
    with pytest.raises(SessionNotFoundError, match="ambiguous"):
        here.open("abcdef")


def test_fork_copies_the_path_to_a_new_file_that_names_its_parent(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    source = chat(sessions.new(), "one", "two")
    first_reply = source.entries[1].id
    source.set_label(source.entries[0].id, "start")
    fork = sessions.fork(source, first_reply)
    assert isinstance(fork.storage, JsonlSessionStorage)
    header = json.loads(fork.storage.path.read_text().splitlines()[0])
    assert header["parentSession"] == str(source.storage.path)  # type: ignore[attr-defined]
    assert [m.content for m in fork.state().messages if isinstance(m, UserMessage)] == ["one"]
    assert fork.labels == {source.entries[0].id: "start"}
    assert fork.header.id != source.header.id
    fork.close()
    source.close()
    assert len(sessions.list_cwd()) == 2


def test_fork_with_nothing_to_keep_stays_lazy(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    source = chat(sessions.new(), "one")
    fork = sessions.fork(source, None)
    assert isinstance(fork.storage, JsonlSessionStorage) and not fork.storage.on_disk
    source.close()
    fork.close()


def test_fork_from_another_project_brings_the_whole_session_here(tmp_path: Path) -> None:
    elsewhere = manager(tmp_path, "/other")
    theirs = chat(elsewhere.new(), "a", "b")
    theirs.close()
    here = manager(tmp_path)
    copy = here.fork_from(theirs.header.id)
    assert copy.header.cwd == "/work/proj" and not here.is_foreign(copy)
    assert len(copy.entries) == len(theirs.entries)
    copy.close()
    assert [i.first_message for i in here.list_cwd()] == ["a"]


def test_delete_removes_the_file_unless_another_process_has_it(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    log = chat(sessions.new(), "bye")
    with pytest.raises(SessionLockedError):
        sessions.delete(log.header.id)
    log.close()
    removed = sessions.delete(log.header.id)
    assert not removed.exists() and sessions.list_cwd() == []


def test_delete_removes_the_request_checkpoint_beside_the_file_and_listings_skip_it(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    log = chat(sessions.new(), "bye")
    log.close()
    storage = log.storage
    assert isinstance(storage, JsonlSessionStorage)
    beside = request_checkpoint_path(storage.path)
    beside.write_bytes(b"a checkpoint")
    assert [info.path for info in sessions.list_cwd()] == [storage.path]
    sessions.delete(log.header.id)
    assert not beside.exists()


def test_in_memory_sessions_never_touch_the_disk(tmp_path: Path) -> None:
    sessions = manager(tmp_path)
    log = chat(sessions.in_memory(), "ephemeral")
    assert isinstance(log.storage, InMemorySessionStorage)
    assert len(log.state().messages) == 2
    log.close()
    assert list(tmp_path.iterdir()) == []
