"""The /tree screen's vocabulary: its rows, the filters it cycles and how a search matches.

Part of the session port (``port.py`` re-exports the names a port needs); pure and free of
UI, so the port's implementations and the screen share one rule for what a search finds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias, overload


@dataclass(frozen=True, slots=True)
class TreeRow:
    """A line of the /tree screen, in display order; ``depth`` grows only where the tree branches."""

    entry_id: str
    depth: int
    text: str
    label: str | None = None
    on_path: bool = False  # on the active branch (root to the current leaf)
    is_leaf: bool = False  # the current position


TreeFilter: TypeAlias = Literal["default", "no-tools", "user", "labelled", "all"]
"""Which entries the /tree screen lists: ``default`` conversation entries (no bookkeeping);
``no-tools`` those without tool results or replies that only call tools; ``user`` the user's
messages; ``labelled`` labelled entries; ``all`` every entry, bookkeeping included."""

TREE_FILTERS: tuple[TreeFilter, ...] = ("default", "no-tools", "user", "labelled", "all")
"""The filters in the order the /tree screen cycles through them."""


def search_words(query: str) -> list[str]:
    """The words a /tree search looks for: ``query`` split at whitespace and case-folded."""
    return query.casefold().split()


def search_text(text: str, label: str | None) -> str:
    """What a /tree search looks in for a row with ``text`` and ``label``, case-folded."""
    return (text if label is None else f"{text}\n{label}").casefold()


def matches(words: Sequence[str], haystack: str) -> bool:
    """Whether ``haystack`` (from ``search_text``) contains every one of ``words`` (from
    ``search_words``); no words match everything."""
    return all(word in haystack for word in words)


class TreeRows(Sequence[TreeRow]):
    """The /tree screen's rows in display order, each built when it is read, so a long
    session's tree costs little until rows are drawn. ``leaf_index`` is the index of the row
    marked ``is_leaf``, None when no row is. Reading a row twice gives two equal rows."""

    __slots__ = (
        "_build",
        "_count",
        "_entry_id",
        "_haystacks",
        "_last_find",
        "_positions",
        "_search_text",
        "leaf_index",
    )

    def __init__(
        self,
        count: int,
        build: Callable[[int], TreeRow],
        leaf_index: int | None = None,
        *,
        entry_id: Callable[[int], str] | None = None,
        search_text: Callable[[int], str] | None = None,
    ) -> None:
        """``build(i)`` makes row ``i`` for ``0 <= i < count``. ``entry_id(i)`` and
        ``search_text(i)``, when given, must equal row ``i``'s ``entry_id`` and the module's
        ``search_text`` of its text and label; they let ``find`` and ``position`` answer
        without building every row."""
        self._count = count
        self._build = build
        self.leaf_index = leaf_index
        self._entry_id = entry_id or (lambda index: build(index).entry_id)
        self._search_text = search_text or (lambda index: _row_search_text(build(index)))
        self._haystacks: list[str] | None = None
        self._positions: dict[str, int] | None = None
        self._last_find: tuple[list[str], list[int]] = ([], [])

    @classmethod
    def of(cls, rows: Iterable[TreeRow] = ()) -> TreeRows:
        """Rows already built."""
        built = list(rows)
        return cls(len(built), built.__getitem__, next((i for i, r in enumerate(built) if r.is_leaf), None))

    def find(self, query: str) -> list[int]:
        """The indices, in order, of the rows whose text or label holds every word of ``query``
        (case-insensitive): exactly those whose ``search_text`` ``matches`` the query's
        ``search_words``; every index when ``query`` has no words. The first search reads every
        row's text once; a query that only narrows the one before (each earlier word lies
        inside one of its words, as when typing on) scans just the earlier matches."""
        words = search_words(query)
        if not words:
            return list(range(self._count))
        if self._haystacks is None:
            self._haystacks = [self._search_text(index) for index in range(self._count)]
        haystacks = self._haystacks
        last_words, last = self._last_find
        narrows = bool(last_words) and all(any(old in new for new in words) for old in last_words)
        candidates: Iterable[int] = last if narrows else range(self._count)
        for word in words:  # a pass per word beats testing every word per row in Python
            candidates = found = [index for index in candidates if word in haystacks[index]]
        self._last_find = (words, found)
        return list(found)

    def position(self, entry_id: str) -> int | None:
        """The index of the row for ``entry_id``, None when no row is for it."""
        if self._positions is None:
            self._positions = {self._entry_id(index): index for index in range(self._count)}
        return self._positions.get(entry_id)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> TreeRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[TreeRow]: ...

    def __getitem__(self, index: int | slice) -> TreeRow | list[TreeRow]:
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(self._count))]
        position = index + self._count if index < 0 else index
        if not 0 <= position < self._count:
            raise IndexError(f"tree row {index} of {self._count}")
        return self._build(position)


def _row_search_text(row: TreeRow) -> str:
    return search_text(row.text, row.label)
