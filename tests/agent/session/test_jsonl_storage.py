from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import MessageEntry, SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage, SessionLockedError
from tau_agent.session.log import SessionLog
from tau_agent.session.reader import SessionFileError
from tau_agent.session.storage import SessionReadOnlyError


def new_log(path: Path) -> SessionLog:
    return SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/project"), fsync="never"))


def answered(path: Path, turns: int = 1) -> SessionLog:
    log = new_log(path)
    for i in range(turns):
        log.append_message(UserMessage(f"question {i}"))
        log.append_message(AssistantMessage([TextContent(f"answer {i}")]))
    return log


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_nothing_is_written_before_the_first_assistant_message(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "s.jsonl"
    log = new_log(path)
    log.append_model_change("openai", "gpt-4o")
    log.append_message(UserMessage("hello"))
    assert not path.exists() and not path.parent.exists()
    log.append_message(AssistantMessage([TextContent("hi")]))
    assert [line["type"] for line in lines(path)] == ["session", "model_change", "message", "message"]
    log.close()


def test_a_session_closed_before_any_reply_leaves_no_file(tmp_path: Path) -> None:
    log = new_log(tmp_path / "s.jsonl")
    log.append_message(UserMessage("hello"))
    log.close()
    assert list(tmp_path.iterdir()) == []


def test_reopened_session_holds_exactly_what_was_appended(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = answered(path, turns=3)
    log.set_name("named")
    before = [e for e in log.entries]
    log.close()
    with JsonlSessionStorage.open(path) as storage:
        assert list(storage.entries) == before
        assert storage.warnings == []
        assert storage.header.cwd == "/project"


def test_each_append_adds_exactly_one_line_and_leaves_the_rest_untouched(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = answered(path)
    before = path.read_bytes()
    log.append_message(UserMessage("one more"))
    after = path.read_bytes()
    assert after.startswith(before)
    added = after[len(before) :]
    assert added.count(b"\n") == 1 and added.endswith(b"\n")
    log.close()


def test_torn_last_line_is_ignored_with_a_warning_and_cut_off_on_the_next_append(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path).close()
    good = path.read_bytes()
    path.write_bytes(good + b'{"type":"message","id":"dead","parentId":null,"timestamp":"x","mess')
    storage = JsonlSessionStorage.open(path)
    assert len(storage.entries) == 2
    assert any("incomplete" in w for w in storage.warnings)
    log = SessionLog(storage)
    log.append_message(UserMessage("after the crash"))
    log.close()
    data = path.read_bytes()
    assert data.startswith(good)
    assert storage.side_file is not None and storage.side_file.name.startswith("s.jsonl.repaired-")
    assert (
        storage.side_file.read_bytes()
        == b'{"type":"message","id":"dead","parentId":null,"timestamp":"x","mess'
    )
    assert [json.loads(line)["type"] for line in data.splitlines()] == [
        "session",
        "message",
        "message",
        "message",
    ]
    with JsonlSessionStorage.open(path, read_only=True) as again:
        assert again.warnings == []
        assert isinstance(again.entries[-1], MessageEntry)


def test_whole_last_line_missing_only_its_newline_is_kept_and_terminated(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path).close()
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    log = SessionLog(JsonlSessionStorage.open(path))
    assert len(log.entries) == 2
    log.append_message(UserMessage("next"))
    log.close()
    assert len(lines(path)) == 4


def test_corrupt_middle_line_is_reported_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path, turns=2).close()
    raw = path.read_text().splitlines()
    raw[2] = raw[2][:40] + "###garbage###"
    raw.insert(3, "[1, 2]")
    path.write_text("\n".join(raw) + "\n")
    with JsonlSessionStorage.open(path) as storage:
        assert len(storage.entries) == 3
        assert [w.split(": ")[1] for w in storage.warnings] == [
            "line 3 is not a JSON object; skipped",
            "line 4 is not a JSON object; skipped",
        ]


def test_a_file_that_is_not_a_session_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": "world"}\n')
    with pytest.raises(SessionFileError, match="not a session file"):
        JsonlSessionStorage.open(path)
    assert path.read_text() == '{"hello": "world"}\n'


def test_an_empty_file_opens_as_a_new_session_and_gets_a_header_on_first_write(tmp_path: Path) -> None:
    path = tmp_path / "2025-01-01T00-00-00-000Z_0f8fad5b-d9cb-469f-a165-70867728950e.jsonl"
    path.write_bytes(b"")
    log = SessionLog(JsonlSessionStorage.open(path))
    assert log.header.id == "0f8fad5b-d9cb-469f-a165-70867728950e"
    log.append_message(UserMessage("hi"))
    log.close()
    assert [line["type"] for line in lines(path)] == ["session", "message"]


def test_read_only_storage_refuses_appends(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path).close()
    with JsonlSessionStorage.open(path, read_only=True) as storage, pytest.raises(SessionReadOnlyError):
        storage.append(MessageEntry(id="x", parent_id=None, message=UserMessage("no")))


HOLDER = textwrap.dedent(
    """
    import sys
    from tau_agent.session.jsonl import JsonlSessionStorage
    storage = JsonlSessionStorage.open(sys.argv[1])
    print("locked", flush=True)
    sys.stdin.readline()
    storage.close()
    """
)


def test_a_second_process_cannot_open_a_session_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(SessionLockedError, match="open in another Tau process"):
            JsonlSessionStorage.open(path)
        with JsonlSessionStorage.open(path, read_only=True) as reader:
            assert len(reader.entries) == 2
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        assert holder.stdout is not None
        holder.stdout.close()
    JsonlSessionStorage.open(path).close()  # free again once the holder has exited


def test_a_v1_file_is_migrated_in_memory_and_rewritten_as_v3_on_first_append(tmp_path: Path) -> None:
    golden = Path(__file__).resolve().parents[2] / "golden" / "sessions" / "pi-v1.jsonl"
    path = tmp_path / "old.jsonl"
    path.write_bytes(golden.read_bytes())
    log = SessionLog(JsonlSessionStorage.open(path))
    assert any("migrated from format v1" in w for w in log.storage.warnings)
    assert path.read_bytes() == golden.read_bytes()  # opening alone changes nothing
    ids = [e.id for e in log.entries]
    log.append_message(UserMessage("continuing"))
    log.close()
    rewritten = lines(path)
    assert rewritten[0]["version"] == 3
    assert [line["id"] for line in rewritten[1:]] == [*ids, log.leaf_id]
    (backup,) = [p for p in tmp_path.iterdir() if p.name != "old.jsonl"]  # no temp file left
    assert backup.name.startswith("old.jsonl.repaired-")
    assert backup.read_bytes() == golden.read_bytes()  # the original, kept whole
    with JsonlSessionStorage.open(path) as again:
        assert again.warnings == [] and len(again.entries) == len(ids) + 1


def test_fsync_always_still_writes_one_line_per_entry(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="always"))
    log.append_message(AssistantMessage([TextContent("a")]))
    log.append_message(UserMessage("b"))
    log.close()
    assert len(lines(path)) == 3


FILLER = textwrap.dedent(
    """
    import os, resource, signal, sys
    from tau_agent.messages import UserMessage
    from tau_agent.session.jsonl import JsonlSessionStorage
    from tau_agent.session.log import SessionLog

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
    log = SessionLog(JsonlSessionStorage.open(sys.argv[1], fsync="never"))
    size = os.path.getsize(sys.argv[1])
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 100, hard))  # room for 100 bytes of the next line
    try:
        log.append_message(UserMessage("x" * 5000))
    except OSError as exc:
        print("refused", exc.errno, len(log.entries), flush=True)
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    log.append_message(UserMessage("after the disk was freed"))
    log.close()
    """
)


def test_a_write_that_fails_half_way_leaves_the_file_valid_and_the_entry_unrecorded(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path).close()
    before = path.read_bytes()
    result = subprocess.run(
        [sys.executable, "-c", FILLER, str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["refused", "27", "2"]  # EFBIG; still the two entries from before
    data = path.read_bytes()
    assert data.startswith(before)
    with JsonlSessionStorage.open(path) as storage:
        assert storage.warnings == []
        assert [e.message.content for e in storage.entries if isinstance(e, MessageEntry)][
            -1
        ] == "after the disk was freed"
        assert len(storage.entries) == 3


def test_a_torn_tail_is_not_cut_if_another_writer_appended_since_the_open(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path).close()
    path.write_bytes(path.read_bytes() + b'{"type":"mess')
    log = SessionLog(JsonlSessionStorage.open(path))
    late = b'{"type":"custom","customType":"pi-ext","id":"late0001","parentId":null,"timestamp":"t"}\n'
    with path.open("ab") as other:  # Pi takes no lock: its append lands after our open
        other.write(late)
    log.append_message(UserMessage("ours"))
    log.close()
    with JsonlSessionStorage.open(path, read_only=True) as storage:
        ids = [e.id for e in storage.entries]
        assert ids[2] == "late0001"  # the other writer's entry, salvaged from the merged line
        assert (
            len(storage.warnings) == 1 and "13 bytes of an interrupted write skipped" in storage.warnings[0]
        )
        assert isinstance(storage.entries[-1], MessageEntry) and len(ids) == 4
    assert b'{"type":"mess{"type":"custom"' in path.read_bytes()  # their bytes were kept, not cut


def test_a_message_holding_a_lone_surrogate_survives_a_reopen(tmp_path: Path) -> None:
    # Models do stream lone UTF-16 surrogate escapes; such text is written with \u escapes and
    # must read back, or the line (and the tree below it) would be lost on the next resume.
    log = new_log(tmp_path / "s.jsonl")
    log.append_message(UserMessage("odd \ud83d text", 1))
    log.append_message(AssistantMessage([TextContent("ok")], timestamp=2))
    log.close()
    with JsonlSessionStorage.open(tmp_path / "s.jsonl", read_only=True) as storage:
        assert storage.warnings == []
        assert [e.message for e in storage.entries if isinstance(e, MessageEntry)] == [
            UserMessage("odd \ud83d text", 1),
            AssistantMessage([TextContent("ok")], timestamp=2),
        ]


def test_a_large_torn_tail_is_kept_whole_in_a_side_file_before_it_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    answered(path).close()
    good = path.read_bytes()
    torn = b'{"type":"message","message":{"content":"' + b"x" * (50 * 1024 * 1024)
    path.write_bytes(good + torn)
    log = SessionLog(JsonlSessionStorage.open(path))
    log.append_message(UserMessage("after the crash"))
    log.close()
    assert path.read_bytes().startswith(good)
    assert log.storage.side_file is not None and log.storage.side_file.read_bytes() == torn


def test_a_v1_file_with_unreadable_lines_keeps_them_in_the_backup(tmp_path: Path) -> None:
    golden = Path(__file__).resolve().parents[2] / "golden" / "sessions" / "pi-v1.jsonl"
    first, *rest = golden.read_bytes().splitlines(keepends=True)
    original = first + b"this line is not JSON\n" + b"".join(rest)
    path = tmp_path / "old.jsonl"
    path.write_bytes(original)
    log = SessionLog(JsonlSessionStorage.open(path))
    assert any("line 2" in w for w in log.storage.warnings)
    log.append_message(UserMessage("continuing"))
    log.close()
    assert b"this line is not JSON" not in path.read_bytes()
    assert log.storage.side_file is not None and log.storage.side_file.read_bytes() == original


def test_a_copy_is_written_whole_kept_locked_and_appendable_without_reading_it_back(tmp_path: Path) -> None:
    source = answered(tmp_path / "source.jsonl", turns=3000)  # past one write piece (1 MiB)
    entries = list(source.storage.entries)
    source.close()
    header = SessionHeader.new("/project")
    copy = JsonlSessionStorage.create_from(tmp_path / "copy.jsonl", header, entries, fsync="never")
    assert all(a is b for a, b in zip(copy.entries, entries, strict=True)), "the entries themselves are kept"
    with pytest.raises(SessionLockedError):
        JsonlSessionStorage.open(tmp_path / "copy.jsonl")
    log = SessionLog(copy)
    log.append_message(UserMessage("after the copy"))
    log.close()
    reread = JsonlSessionStorage.open(tmp_path / "copy.jsonl", read_only=True)
    assert reread.header == header and list(reread.entries)[:-1] == entries and not reread.warnings
    assert {p.name for p in tmp_path.iterdir()} == {"source.jsonl", "copy.jsonl"}, "no temporary file is left"
    with pytest.raises(FileExistsError):
        JsonlSessionStorage.create_from(tmp_path / "copy.jsonl", header, entries, fsync="never")


def test_closing_syncs_what_was_appended_and_nothing_when_only_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answered(tmp_path / "s.jsonl").close()
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    JsonlSessionStorage.open(tmp_path / "s.jsonl").close()  # opened to be read or forked
    assert synced == []
    log = SessionLog(JsonlSessionStorage.open(tmp_path / "s.jsonl"))
    log.append_message(UserMessage("one more"))
    log.close()
    assert len(synced) == 1
