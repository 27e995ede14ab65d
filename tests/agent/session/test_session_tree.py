from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.messages import UserMessage
from tau_agent.session.entries import MessageEntry, SessionEntry
from tau_agent.session.tree import SessionTree


def entry(eid: str, parent: str | None) -> SessionEntry:
    return MessageEntry(id=eid, parent_id=parent, timestamp="", message=UserMessage(eid, 0))


def branched() -> SessionTree:
    #  a - b - c
    #       \- d - e
    return SessionTree([entry("a", None), entry("b", "a"), entry("c", "b"), entry("d", "b"), entry("e", "d")])


def test_path_runs_from_the_root_to_the_leaf() -> None:
    tree = branched()
    assert [e.id for e in tree.path("e")] == ["a", "b", "d", "e"]
    assert [e.id for e in tree.path("c")] == ["a", "b", "c"]
    assert tree.path(None) == [] and tree.path("nope") == []


def test_children_and_branch_points_follow_file_order_and_stay_current_after_add() -> None:
    tree = branched()
    assert [e.id for e in tree.children("b")] == ["c", "d"]
    assert tree.branch_points() == ["b"]
    tree.add(entry("f", "a"))
    assert [e.id for e in tree.children("a")] == ["b", "f"]
    assert tree.branch_points() == ["a", "b"]


def test_an_orphan_is_a_root_and_its_path_starts_at_it() -> None:
    tree = SessionTree([entry("a", None), entry("x", "lost"), entry("y", "x")])
    assert [e.id for e in tree.roots()] == ["a", "x"]
    assert [e.id for e in tree.path("y")] == ["x", "y"]


def test_a_cycle_in_a_hand_edited_file_does_not_hang() -> None:
    tree = SessionTree([entry("a", "b"), entry("b", "a"), entry("c", "c")])
    assert [e.id for e in tree.path("a")] == ["b", "a"]
    assert [e.id for e in tree.path("c")] == ["c"]


def test_path_of_a_100k_deep_chain_is_linear_not_quadratic() -> None:
    entries = [entry(str(i), str(i - 1) if i else None) for i in range(100_000)]
    tree = SessionTree(entries)
    start = time.perf_counter()
    path = tree.path("99999")
    elapsed = time.perf_counter() - start
    assert len(path) == 100_000 and path[0].id == "0"
    assert elapsed < 0.5  # ~0.02 s in practice; prepending would take minutes


def test_the_path_of_a_chain_is_its_entries_and_stays_right_as_it_grows_and_branches() -> None:
    entries = [entry("a", None), entry("b", "a"), entry("c", "b")]
    tree = SessionTree(entries)
    assert tree.path("c") == entries and [e.id for e in tree.path("b")] == ["a", "b"]
    tree.add(entry("d", "c"))
    assert [e.id for e in tree.path("d")] == ["a", "b", "c", "d"]
    tree.add(entry("e", "b"))  # a branch: no longer one chain
    assert [e.id for e in tree.path("e")] == ["a", "b", "e"]
    tree.add(entry("f", "e"))
    assert [e.id for e in tree.path("f")] == ["a", "b", "e", "f"]


def test_what_only_looks_like_a_chain_is_walked() -> None:
    assert [e.id for e in SessionTree([entry("a", "a"), entry("b", "a")]).path("b")] == ["a", "b"]
    assert [e.id for e in SessionTree([entry("a", "b"), entry("b", "a")]).path("b")] == ["a", "b"]
    grown = SessionTree()
    grown.add(entry("a", "a"))
    grown.add(entry("b", "a"))
    assert [e.id for e in grown.path("b")] == ["a", "b"]
    orphan = SessionTree([entry("x", "lost"), entry("y", "x")])
    assert [e.id for e in orphan.path("y")] == ["x", "y"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1, 40), max_size=30), st.integers(0, 40))
def test_the_path_to_any_entry_is_the_walk_up_its_parent_links(parents: list[int], leaf: int) -> None:
    # parents[i]: -1 none, else the entry it hangs under (mostly the one before: a chain)
    entries = [
        entry(f"e{i}", None if p < 0 else f"e{min(p, i - 1) if p % 5 else i - 1}")
        for i, p in enumerate(parents)
    ]
    tree = SessionTree()
    for e in entries:
        tree.add(e)
    leaf_id = f"e{leaf}"
    walked: list[SessionEntry] = []
    by_id = {e.id: e for e in entries}
    current = by_id.get(leaf_id)
    while current is not None and current not in walked:
        walked.append(current)
        current = by_id.get(current.parent_id) if current.parent_id is not None else None
    assert tree.path(leaf_id) == walked[::-1] == SessionTree(entries).path(leaf_id)
