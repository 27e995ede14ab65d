"""A session of several megabytes (read in several batches, its pages dropped behind the
reader) resumes to the same context as reading every line the careful way, and forks to the
same entries as encoding them again."""

from __future__ import annotations

import json
from pathlib import Path

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.codec import entry_from_dict
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog, branch_entries
from tau_agent.session.reader import read_session
from tau_agent.session.storage import InMemorySessionStorage

TURNS = 2_500  # 7,500 entries, about 3.5 MB: four read batches
BODY = "def handler(event):\n    return process(event)\n" * 8


def message(i: int) -> AgentMessage:
    kind = i % 3
    if kind == 0:
        return UserMessage(f"look at module_{i}.py", timestamp=1_700_000_000_000 + i)
    if kind == 1:
        call = ToolCall(f"call_{i}", "read", {"path": f"module_{i}.py"})
        return AssistantMessage(
            [TextContent("reading"), call], provider="p", model="m", stop_reason="toolUse", timestamp=i
        )
    return ToolResultMessage(f"call_{i - 1}", "read", [TextContent(BODY)], timestamp=i)


def write_session(path: Path) -> SessionLog:
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    for i in range(TURNS * 3):
        if i == TURNS * 3 // 2:
            log.append_compaction("the first half", log.entries[-300].id, 1234)
            log.set_label(log.entries[10].id, "early")
        log.append_message(message(i))
    log.close()
    return log


def test_a_resumed_multi_megabyte_session_replays_as_the_careful_reader_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    write_session(path)
    assert path.stat().st_size > 3 << 20
    lines = path.read_bytes().split(b"\n")[1:-1]
    careful = [entry_from_dict(json.loads(line)) for line in lines]
    with JsonlSessionStorage.open(path) as storage:
        resumed = SessionLog(storage)
        assert list(storage.entries) == careful and not storage.warnings
        eager = SessionLog(InMemorySessionStorage(storage.header, careful))
        assert resumed.state() == eager.state()
        assert len(resumed.state().messages) > TURNS * 3 // 2


def test_a_multi_megabyte_fork_by_copied_lines_equals_the_re_encoded_one(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    write_session(path)
    with JsonlSessionStorage.open(path) as storage:
        log = SessionLog(storage)
        leaf = log.entries[-7].id
        kept = branch_entries(log, leaf)
        loaded = {id(e) for e in log.entries}
        moved = sum(id(e) not in loaded for e in kept[:-1])  # hung from a dropped label entry
        header = SessionHeader.new("/p", str(path))
        JsonlSessionStorage.create_from(tmp_path / "copied.jsonl", header, kept, source=storage).close()
        JsonlSessionStorage.create_from(tmp_path / "encoded.jsonl", header, kept).close()
    copied = read_session((tmp_path / "copied.jsonl").read_bytes())
    encoded = read_session((tmp_path / "encoded.jsonl").read_bytes())
    assert copied.entries == encoded.entries == kept and not copied.warnings
    assert kept[-1].type == "label"  # the label is made anew, after the path
    source_lines = set(path.read_bytes().split(b"\n"))
    copied_lines = (tmp_path / "copied.jsonl").read_bytes().split(b"\n")[1:-2]
    assert sum(line not in source_lines for line in copied_lines) == moved > 0
