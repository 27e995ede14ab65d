"""Where a session's entries live: the ``SessionStorage`` seam and an in-memory implementation.

A storage holds one header and the entries in the order they were appended. It never
reorders, edits or drops an entry it accepted; the tree and the leaf are the caller's
business (see ``SessionLog``). ``JsonlSessionStorage`` (jsonl.py) keeps them in a file;
``InMemorySessionStorage`` keeps them for ``--no-session`` runs and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tau_agent.session.entries import SessionEntry, SessionHeader
from tau_agent.session.tree import SessionTree


class SessionReadOnlyError(RuntimeError):
    """An append to a storage opened read-only."""


class SessionStorage(Protocol):
    @property
    def header(self) -> SessionHeader: ...

    @property
    def entries(self) -> Sequence[SessionEntry]:
        """Every entry, in append (file) order. Read-only for callers."""
        ...

    @property
    def warnings(self) -> Sequence[str]:
        """One line per problem met while loading (skipped lines, a torn tail, a migration)."""
        ...

    @property
    def read_only(self) -> bool: ...

    def append(self, entry: SessionEntry) -> None:
        """Record one entry. O(1); raises SessionReadOnlyError on a read-only storage."""
        ...

    def take_tree(self) -> SessionTree | None:
        """The tree of ``entries``, if the storage made it while loading them and nothing was
        appended since; given once (the taker owns it), None after that or otherwise."""
        ...

    def close(self) -> None: ...


class InMemorySessionStorage:
    """A storage that forgets everything when the process ends."""

    def __init__(self, header: SessionHeader, entries: Sequence[SessionEntry] = ()) -> None:
        self._header = header
        self._entries: list[SessionEntry] = list(entries)

    @property
    def header(self) -> SessionHeader:
        return self._header

    @property
    def entries(self) -> Sequence[SessionEntry]:
        return self._entries

    @property
    def warnings(self) -> Sequence[str]:
        return ()

    @property
    def read_only(self) -> bool:
        return False

    def append(self, entry: SessionEntry) -> None:
        self._entries.append(entry)

    def take_tree(self) -> SessionTree | None:
        return None

    def close(self) -> None:
        return None


__all__ = ["InMemorySessionStorage", "SessionReadOnlyError", "SessionStorage"]
