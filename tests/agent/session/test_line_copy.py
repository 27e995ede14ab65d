"""A fork or copy that copies its source's lines byte for byte holds exactly what encoding
every entry again would write, whatever the source file looks like: branches, compactions,
labels, leaf markers, corrupt or blank lines, lines another writer formatted its own way, a
file changed after it was read."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import MessageEntry, SessionEntry, SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog, branch_entries
from tau_agent.session.reader import LoadedSession, read_session

Op = tuple[str, int, str]
T = 1_767_225_600_000

ops = st.lists(
    st.tuples(
        st.sampled_from(["user", "call", "navigate", "compact", "label", "unlabel", "name", "custom"]),
        st.integers(0, 1000),
        st.text(max_size=6),
    ),
    min_size=1,
    max_size=25,
)


def build(path: Path, steps: list[Op]) -> None:
    """A session file made by ``steps`` (always with one reply, so that it is written)."""
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    # Messages made a moment ago: one stamped in the very millisecond it is read looks like one
    # without a timestamp to the fast path, and would not be copied.
    log.append_message(UserMessage("start", timestamp=T))
    log.append_message(AssistantMessage([TextContent("ok")], provider="p", model="m", timestamp=T))
    for kind, n, text in steps:
        ids = [e.id for e in log.entries]
        target = ids[n % len(ids)]
        if kind == "user":
            log.append_message(UserMessage(f"ask {text}", timestamp=T))
        elif kind == "call":
            call = ToolCall(f"c{n}", "read", {"path": text})
            log.append_message(
                AssistantMessage([TextContent("look"), call], stop_reason="toolUse", timestamp=T)
            )
            log.append_message(ToolResultMessage(call.id, "read", [TextContent(f"body {text}")], timestamp=T))
        elif kind == "navigate":
            log.navigate(None if n % 7 == 0 else target)
        elif kind == "compact":
            log.append_compaction(f"summary {text}", target, n)
        elif kind == "label":
            log.set_label(target, text or "mark")
        elif kind == "unlabel":
            log.set_label(target, None)
        elif kind == "name" and text.strip():
            log.set_name(text)
        elif kind == "custom":
            log.append_custom("ext", {"n": n, "text": text})
    log.close()


def restyle(path: Path, spaced: bool, junk: list[tuple[int, bytes]]) -> None:
    """Lines as another writer might leave them: spaced JSON, non-ASCII escaped (the same
    entries, other bytes), with ``junk`` lines inserted after the header."""
    lines = path.read_bytes().split(b"\n")[:-1]
    if spaced:
        lines = [json.dumps(json.loads(line), separators=(", ", ": ")).encode() for line in lines]
    for at, line in junk:
        lines.insert(1 + at % len(lines), line)
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def read_back(path: Path) -> LoadedSession:
    return read_session(path.read_bytes(), "s")


def fork_both_ways(
    source: Path, leaf: int | None, tmp: Path
) -> tuple[LoadedSession, LoadedSession, list[SessionEntry]]:
    """The fork at the ``leaf``-th entry (None: the resume leaf), written by copying lines and
    by encoding, both read back; and what it holds."""
    with JsonlSessionStorage.open(source) as storage:
        log = SessionLog(storage)
        entries = list(log.entries)
        leaf_id = log.leaf_id if leaf is None or not entries else entries[leaf % len(entries)].id
        kept = branch_entries(log, leaf_id)
        header = SessionHeader.new("/p", str(source))
        JsonlSessionStorage.create_from(tmp / "copied.jsonl", header, kept, source=storage).close()
        JsonlSessionStorage.create_from(tmp / "encoded.jsonl", header, kept).close()
    return read_back(tmp / "copied.jsonl"), read_back(tmp / "encoded.jsonl"), kept


junk_lines = st.lists(
    st.tuples(
        st.integers(0, 100),
        st.sampled_from([b"", b"   ", b"{not json", b'{"type":"mess', b"[1,2]", b'{"type":"label"}']),
    ),
    max_size=3,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops, st.booleans(), junk_lines, st.none() | st.integers(0, 1000))
# A blank line after the entries the fork keeps: counted back from the end, their lines seemed
# to end one line later, and the check of the last one found its id in the next line's
# "parentId", so the fork copied an entry of another branch.
@example(steps=[("call", 0, ""), ("navigate", 46, "")], spaced=False, junk=[(4, b"")], leaf=None)
def test_a_fork_by_copied_lines_reads_back_as_the_re_encoded_fork_entry_for_entry(
    steps: list[Op], spaced: bool, junk: list[tuple[int, bytes]], leaf: int | None
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        source = tmp / "source.jsonl"
        build(source, steps)
        restyle(source, spaced, junk)
        copied, encoded, kept = fork_both_ways(source, leaf, tmp)
        if spaced and not junk and kept:  # the path's lines were copied, not encoded
            assert (tmp / "copied.jsonl").read_bytes().split(b"\n")[1] in source.read_bytes()
    assert copied.entries == encoded.entries == kept
    assert copied.warnings == encoded.warnings == []
    assert copied.header == encoded.header


def test_lines_another_writer_formatted_are_copied_as_they_are(tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    build(source, [("user", 1, "é"), ("call", 2, "x"), ("label", 0, "first")])
    restyle(source, True, [])
    copied, _, kept = fork_both_ways(source, None, tmp_path)
    lines = (tmp_path / "copied.jsonl").read_bytes().split(b"\n")
    source_lines = source.read_bytes().split(b"\n")
    path_lines = [line for line in source_lines[1:] if b'"label"' not in line and line]
    assert lines[1 : 1 + len(path_lines)] == path_lines  # spaced and escaped, as the source has them
    assert b": " not in lines[-2]  # the fresh label entry is encoded by Tau
    assert copied.entries == kept


def test_a_file_changed_after_it_was_read_is_forked_by_encoding(tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    build(source, [("user", 1, "a"), ("user", 2, "b"), ("user", 3, "c")])
    with JsonlSessionStorage.open(source, read_only=True) as storage:
        log = SessionLog(storage)
        kept = branch_entries(log, log.leaf_id)
        lines = source.read_bytes().split(b"\n")
        lines[2], lines[3] = lines[3], lines[2]  # another process rewrote the file (no lock on reads)
        source.write_bytes(b"\n".join(lines))
        header = SessionHeader.new("/p")
        JsonlSessionStorage.create_from(tmp_path / "copied.jsonl", header, kept, source=storage).close()
    assert read_back(tmp_path / "copied.jsonl").entries == kept


def test_entries_appended_after_the_read_are_encoded_after_the_copied_lines(tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    build(source, [("user", 1, "a")])
    with JsonlSessionStorage.open(source) as storage:
        log = SessionLog(storage)
        log.append_message(UserMessage("later"))
        log.set_label(log.entries[0].id, "root")
        log.append_message(AssistantMessage([TextContent("later reply")]))
        kept = branch_entries(log, log.leaf_id)
        header = SessionHeader.new("/p")
        fork = JsonlSessionStorage.create_from(tmp_path / "copied.jsonl", header, kept, source=storage)
        more = MessageEntry(id="in-fork", parent_id=kept[-1].id, message=UserMessage("in the fork"))
        fork.append(more)  # the fork stays appendable, and copyable in turn
        JsonlSessionStorage.create_from(tmp_path / "again.jsonl", header, fork.entries, source=fork).close()
        fork.close()
    assert [type(e).__name__ for e in kept[-3:]] == ["MessageEntry", "MessageEntry", "LabelEntry"]
    assert read_back(tmp_path / "copied.jsonl").entries == [*kept, more]
    assert read_back(tmp_path / "again.jsonl").entries == [*kept, more]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops, st.booleans(), junk_lines, st.booleans())
def test_a_file_read_through_its_memory_map_gives_what_its_bytes_give(
    steps: list[Op], spaced: bool, junk: list[tuple[int, bytes]], torn: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _read_both_ways(Path(folder) / "source.jsonl", steps, spaced, junk, torn)


def _read_both_ways(
    source: Path, steps: list[Op], spaced: bool, junk: list[tuple[int, bytes]], torn: bool
) -> None:
    build(source, steps)
    restyle(source, spaced, junk)
    if torn:
        with source.open("ab") as out:
            out.write(b'{"type":"message","id":"zz')
    eager = read_back(source)
    for read_only in (False, True):  # a writable open (it holds the lock) reads through a map
        with JsonlSessionStorage.open(source, read_only=read_only) as storage:
            assert list(storage.entries) == eager.entries
            assert list(storage.warnings) == [w.replace("s:", "source.jsonl:", 1) for w in eager.warnings]
            assert SessionLog(storage).state() == SessionLog(_memory(eager)).state()


def _memory(loaded: LoadedSession) -> JsonlSessionStorage:
    assert loaded.header is not None
    return JsonlSessionStorage(
        Path("/nonexistent"), loaded.header, loaded.entries, fd=None, read_only=True, fsync="never"
    )
