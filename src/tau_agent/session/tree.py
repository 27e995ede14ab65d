"""The session tree in memory: entries by id, children, the path from a root to a leaf.

Pure (no I/O). ``add`` is O(1); the children index is built on first use and then kept up
to date by ``add``, so a plain replay never pays for it. ``path`` walks parent links
upwards and reverses once: O(depth), never the quadratic build-by-prepending. A session
that never branched is one chain, each entry hanging under the one before it; the tree
notices, and the path to any entry is then a prefix of the entries (a resume or a fork of a
long session walks nothing); ``chain_prefix`` gives a fork's own tree by copying the index. A broken file can hold a parent link to an id that does not exist
(the path then starts at the orphan) or, in a hand-edited file, a cycle (the walk stops
when it meets an entry twice).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from operator import attrgetter

from tau_agent.session.entries import SessionEntry

_ID = attrgetter("id")
_PARENT = attrgetter("parent_id")


class SessionTree:
    """Entries indexed by id, in the order they were added (file order)."""

    __slots__ = ("_by_id", "_chain", "_children", "_last")

    def __init__(self, entries: Iterable[SessionEntry] = ()) -> None:
        listed = list(entries)
        ids = list(map(_ID, listed))
        self._by_id: dict[str, SessionEntry] = dict(zip(ids, listed, strict=True))
        self._children: dict[str | None, list[SessionEntry]] | None = None
        self._last: str | None = ids[-1] if ids else None
        # One chain: every entry hangs under the one before it, the first under nothing
        # known (and the ids are unique, so no entry was overwritten in the index).
        self._chain = len(self._by_id) == len(ids) and (
            not ids
            or (
                listed[0].parent_id not in self._by_id
                and list(map(_PARENT, islice(listed, 1, None))) == ids[:-1]
            )
        )

    def add(self, entry: SessionEntry) -> None:
        """Index one more entry (its id must be new). O(1)."""
        if self._chain:
            if self._by_id:
                self._chain = entry.parent_id == self._last
            else:
                self._chain = entry.parent_id != entry.id
        self._by_id[entry.id] = entry
        self._last = entry.id
        if self._children is not None:
            self._children.setdefault(self._parent_key(entry), []).append(entry)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._by_id

    def __len__(self) -> int:
        return len(self._by_id)

    def __iter__(self) -> Iterator[SessionEntry]:
        return iter(self._by_id.values())

    def get(self, entry_id: str | None) -> SessionEntry | None:
        return None if entry_id is None else self._by_id.get(entry_id)

    def path(self, leaf_id: str | None) -> list[SessionEntry]:
        """Entries from the root down to ``leaf_id`` inclusive; empty for ``None`` or an unknown id."""
        by_id = self._by_id
        if self._chain and leaf_id is not None and leaf_id in by_id:  # the entries up to the leaf, at C speed
            if leaf_id == self._last:
                return list(by_id.values())
            return list(islice(by_id.values(), self._position(leaf_id) + 1))
        out: list[SessionEntry] = []
        current = by_id.get(leaf_id) if leaf_id is not None else None
        limit = len(by_id)
        while current is not None:
            out.append(current)
            if len(out) > limit:  # longer than the tree: a cycle; walk again, stopping at a repeat
                return self._path_with_cycle(out[0])
            parent = current.parent_id
            current = by_id.get(parent) if parent is not None and parent != current.id else None
        out.reverse()
        return out

    @classmethod
    def indexed(cls, by_id: dict[str, SessionEntry], chain: bool) -> SessionTree:
        """The tree ``SessionTree(entries)`` builds, from what a reader learnt while making the
        entries (reader.py): ``by_id`` holds every one of them by its id (all distinct), in
        file order, and ``chain`` says whether each hangs under the one before it, the first
        under an id not among them. The tree keeps ``by_id`` as its own."""
        tree = cls()
        tree._by_id, tree._chain = by_id, chain
        tree._last = next(reversed(by_id)) if by_id else None
        return tree

    def chain_prefix(self, leaf_id: str | None) -> SessionTree | None:
        """The tree ``SessionTree(self.path(leaf_id))`` builds (None for ``leaf_id``: empty),
        made by copying this tree's index at C speed, when this tree is one chain and holds
        ``leaf_id``; None otherwise. A fork of a long session keeps most of it: indexing its
        entries afresh would hash every id again."""
        by_id = self._by_id
        if not self._chain or (leaf_id is not None and leaf_id not in by_id):
            return None
        tree = SessionTree()
        if leaf_id is None:
            return tree
        keep = self._position(leaf_id) + 1
        drop = len(by_id) - keep
        if drop <= keep:  # copy the whole index, then take the few entries after the leaf out
            index = by_id.copy()
            for key in list(islice(reversed(by_id), drop)):
                del index[key]
        else:
            index = dict(islice(by_id.items(), keep))
        tree._by_id, tree._last, tree._chain = index, leaf_id, True
        return tree

    def _position(self, entry_id: str) -> int:
        """Where ``entry_id`` (which must be held) is in file order; looked for among the last
        few entries first, where a resume, a fork or a move in the tree mostly points."""
        by_id = self._by_id
        for back, key in enumerate(islice(reversed(by_id), 32)):
            if key == entry_id:
                return len(by_id) - 1 - back
        return list(by_id).index(entry_id)

    def _path_with_cycle(self, leaf: SessionEntry) -> list[SessionEntry]:
        out: list[SessionEntry] = []
        seen: set[str] = set()
        current: SessionEntry | None = leaf
        while current is not None and current.id not in seen:
            seen.add(current.id)
            out.append(current)
            current = self.get(current.parent_id)
        out.reverse()
        return out

    def children(self, entry_id: str | None) -> list[SessionEntry]:
        """Direct children in file order; ``None`` gives the roots (orphans included)."""
        return list(self._index().get(entry_id, ()))

    def roots(self) -> list[SessionEntry]:
        return self.children(None)

    def branch_points(self) -> list[str]:
        """Ids of entries with more than one child, in file order."""
        index = self._index()
        return [eid for eid in self._by_id if len(index.get(eid, ())) > 1]

    def _parent_key(self, entry: SessionEntry) -> str | None:
        parent = entry.parent_id
        if parent is None or parent == entry.id or parent not in self._by_id:
            return None
        return parent

    def _index(self) -> dict[str | None, list[SessionEntry]]:
        if self._children is None:
            children: dict[str | None, list[SessionEntry]] = {}
            for entry in self._by_id.values():
                children.setdefault(self._parent_key(entry), []).append(entry)
            self._children = children
        return self._children


__all__ = ["SessionTree"]
