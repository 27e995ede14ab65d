"""The tree a fast read makes as it goes (reader.py, ``fast_decode.Indexing``) is the tree
``SessionTree`` would build from the same entries: the same entries by id, in file order, the
same paths, the same children; and a storage hands it over once, untouched by appends."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.messages import UserMessage
from tau_agent.session.entries import MessageEntry, SessionEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.reader import read_session
from tau_agent.session.tree import SessionTree

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/p"}


def line(entry_id: str, parent: str | None, kind: str = "message", text: str = "hi") -> bytes:
    entry: dict[str, object] = {
        "type": kind,
        "id": entry_id,
        "parentId": parent,
        "timestamp": HEADER["timestamp"],
    }
    if kind == "message":
        entry["message"] = {"role": "user", "content": text, "timestamp": 1}
    else:
        entry.update(targetId=entry_id, label="here")
    return json.dumps(entry).encode()


def session_bytes(lines: list[bytes]) -> bytes:
    return b"\n".join([json.dumps(HEADER).encode(), *lines]) + b"\n"


def assert_same_tree(made: SessionTree, entries: list[SessionEntry]) -> None:
    built = SessionTree(entries)
    assert list(made) == list(built)
    for entry in entries:
        assert made.path(entry.id) == built.path(entry.id)
        assert made.children(entry.id) == built.children(entry.id)
    assert made.roots() == built.roots()
    assert (made.chain_prefix(None) is None) == (built.chain_prefix(None) is None)  # one chain or not


shapes = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h"]),  # repeats: a duplicate id
        st.sampled_from(["prev", "none", "unknown", "a", "c"]),
        st.sampled_from(["message", "message", "message", "label"]),
    ),
    max_size=10,
)


@settings(max_examples=300, deadline=None)
@given(shapes, st.booleans())
def test_the_tree_made_while_reading_is_the_tree_of_the_entries(
    shape: list[tuple[str, str, str]], unique: bool
) -> None:
    lines, previous = [], None
    for n, (name, parent_kind, kind) in enumerate(shape):
        entry_id = f"{name}{n}" if unique else name
        parent = {"prev": previous, "none": None, "unknown": "zz"}.get(parent_kind, parent_kind)
        lines.append(line(entry_id, parent, kind))
        previous = entry_id
    loaded = read_session(session_bytes(lines))
    if loaded.tree is not None:
        assert_same_tree(loaded.tree, loaded.entries)
    if unique:
        assert loaded.tree is not None  # every line was read the fast way


def test_a_chain_read_in_many_batches_is_one_chain_and_a_late_branch_is_not(tmp_path: Path) -> None:
    text = "x" * 400  # 5,000 lines of ~500 bytes: several batches of 1 MiB
    chain = [line(f"e{n}", f"e{n - 1}" if n else None, text=text) for n in range(5000)]
    loaded = read_session(session_bytes(chain))
    assert loaded.tree is not None
    assert loaded.tree.chain_prefix("e10") is not None  # kept as one chain
    assert_same_tree(loaded.tree, loaded.entries)
    branched = [*chain[:4000], line("e4000", "e10", text=text), *chain[4001:]]
    loaded = read_session(session_bytes(branched))
    assert loaded.tree is not None and loaded.tree.chain_prefix("e10") is None
    assert loaded.tree.path("e4999")[:12] == [*loaded.entries[:11], loaded.entries[4000]]


def test_a_storage_hands_its_tree_over_once_and_not_after_an_append(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes([line("a", None), line("b", "a")]))
    with JsonlSessionStorage.open(path) as storage:
        tree = storage.take_tree()
        assert tree is not None and [e.id for e in tree] == ["a", "b"]
        assert storage.take_tree() is None
    with JsonlSessionStorage.open(path) as storage:
        storage.append(
            MessageEntry(id="c", parent_id="b", timestamp=HEADER["timestamp"], message=UserMessage("x", 1))
        )
        assert storage.take_tree() is None
