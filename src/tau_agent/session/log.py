"""SessionLog: a session being worked on: its storage, its tree, and where the next entry goes.

Every ``append_*`` builds one entry as a child of the current leaf, hands it to the storage
(one line on disk for a file storage) and moves the leaf onto it: O(1), the tree updated
in place. ``navigate`` moves the leaf without adding history; when the new leaf differs
from what a reader of the stored entries would resume at, a leaf marker (entries.py) is
appended so that resuming later, in Tau or in Pi, lands on the same path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

import msgspec

from tau_agent.content import ImageContent, TextContent
from tau_agent.messages import AgentMessage, BranchSummaryMessage, CompactionSummaryMessage
from tau_agent.session.entries import (
    LEAF_MARKER,
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionHeader,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
    is_leaf_marker,
    iso_now,
    new_entry_id,
)
from tau_agent.session.state import (
    PathSettings,
    SessionState,
    collect_labels_and_name,
    resume_leaf,
    settings_on_path,
)
from tau_agent.session.storage import SessionStorage
from tau_agent.session.tree import SessionTree


class SessionLog:
    """The one object that appends to a session. Not thread-safe; one per open session."""

    def __init__(
        self,
        storage: SessionStorage,
        *,
        new_id: Callable[[], str] | None = None,
        clock: Callable[[], str] = iso_now,
    ) -> None:
        """``new_id`` and ``clock`` make ids and timestamps predictable (golden files, tests);
        by default ids are random 8-hex strings checked against the tree, times are now."""
        self.storage = storage
        self._id_source = new_id
        self._clock = clock
        entries = storage.entries
        self.tree = SessionTree(entries)
        self._leaf = resume_leaf(entries)
        self._stored_leaf = self._leaf
        self._labels, self._name = collect_labels_and_name(entries)

    # -- reading ------------------------------------------------------------------------------

    @property
    def header(self) -> SessionHeader:
        return self.storage.header

    @property
    def entries(self) -> Sequence[SessionEntry]:
        return self.storage.entries

    @property
    def leaf_id(self) -> str | None:
        return self._leaf

    @property
    def labels(self) -> dict[str, str]:
        return dict(self._labels)

    @property
    def name(self) -> str | None:
        return self._name

    def path(self, leaf_id: str | None = None) -> list[SessionEntry]:
        """Root-to-leaf entries (at the current leaf by default)."""
        return self.tree.path(self._leaf if leaf_id is None else leaf_id)

    def state(self) -> SessionState:
        """Replay at the current leaf."""
        return SessionState.from_entries(
            self.storage.entries, self._leaf, self.tree, (self._labels, self._name)
        )

    def settings(self) -> PathSettings:
        """The model and thinking level the current path records (O(depth), no replay)."""
        return settings_on_path(self.path())

    # -- writing ------------------------------------------------------------------------------

    def _new_id(self) -> str:
        if self._id_source is not None:
            return self._id_source()
        return new_entry_id(self.tree.__contains__)

    def _append(self, entry: SessionEntry) -> SessionEntry:
        self.storage.append(entry)
        self.tree.add(entry)
        if is_leaf_marker(entry):
            self._stored_leaf = entry.parent_id
        else:
            self._leaf = self._stored_leaf = entry.id
        return entry

    def append_message(self, message: AgentMessage) -> MessageEntry:
        """Record a finished message. Summaries belong in compaction/branch_summary entries."""
        if isinstance(message, CompactionSummaryMessage | BranchSummaryMessage):
            raise TypeError("summaries are recorded with append_compaction/append_branch_summary")
        entry = MessageEntry(
            id=self._new_id(), timestamp=self._clock(), parent_id=self._leaf, message=message
        )
        self._append(entry)
        return entry

    def append_model_change(self, provider: str, model_id: str) -> ModelChangeEntry:
        entry = ModelChangeEntry(
            id=self._new_id(),
            timestamp=self._clock(),
            parent_id=self._leaf,
            provider=provider,
            model_id=model_id,
        )
        self._append(entry)
        return entry

    def append_thinking_level_change(self, thinking_level: str) -> ThinkingLevelChangeEntry:
        entry = ThinkingLevelChangeEntry(
            id=self._new_id(), timestamp=self._clock(), parent_id=self._leaf, thinking_level=thinking_level
        )
        self._append(entry)
        return entry

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str,
        tokens_before: int,
        details: Any = None,
        from_hook: bool | None = None,
    ) -> CompactionEntry:
        entry = CompactionEntry(
            id=self._new_id(),
            timestamp=self._clock(),
            parent_id=self._leaf,
            summary=summary,
            first_kept_entry_id=first_kept_entry_id,
            tokens_before=tokens_before,
            details=details,
            from_hook=from_hook,
        )
        self._append(entry)
        return entry

    def append_branch_summary(
        self, from_id: str | None, summary: str, details: Any = None, from_hook: bool | None = None
    ) -> BranchSummaryEntry:
        """Move to ``from_id`` (None: before the first entry) and record what the old branch did."""
        self._check(from_id)
        entry = BranchSummaryEntry(
            id=self._new_id(),
            timestamp=self._clock(),
            parent_id=from_id,
            from_id=from_id or "root",
            summary=summary,
            details=details,
            from_hook=from_hook,
        )
        self._append(entry)
        return entry

    def append_custom(self, custom_type: str, data: Any = None) -> CustomEntry:
        if custom_type == LEAF_MARKER:
            raise ValueError(f"{LEAF_MARKER!r} is reserved; use navigate()")
        entry = CustomEntry(
            id=self._new_id(),
            timestamp=self._clock(),
            parent_id=self._leaf,
            custom_type=custom_type,
            data=data,
        )
        self._append(entry)
        return entry

    def append_custom_message(
        self,
        custom_type: str,
        content: str | list[TextContent | ImageContent],
        display: bool = True,
        details: Any = None,
    ) -> CustomMessageEntry:
        entry = CustomMessageEntry(
            id=self._new_id(),
            timestamp=self._clock(),
            parent_id=self._leaf,
            custom_type=custom_type,
            content=content,
            display=display,
            details=details,
        )
        self._append(entry)
        return entry

    def set_label(self, target_id: str, label: str | None) -> LabelEntry:
        """Bookmark ``target_id`` (None or "" clears the label)."""
        self._check(target_id)
        text = label.strip() if label else None
        entry = LabelEntry(
            id=self._new_id(),
            timestamp=self._clock(),
            parent_id=self._leaf,
            target_id=target_id,
            label=text or None,
        )
        self._append(entry)
        if entry.label:
            self._labels[target_id] = entry.label
        else:
            self._labels.pop(target_id, None)
        return entry

    def set_name(self, name: str) -> SessionInfoEntry:
        """Name the session (Pi's ``session_info``); the name must not be blank."""
        text = name.strip()
        if not text:
            raise ValueError("a session name cannot be empty")
        entry = SessionInfoEntry(id=self._new_id(), timestamp=self._clock(), parent_id=self._leaf, name=text)
        self._append(entry)
        self._name = text
        return entry

    def navigate(self, entry_id: str | None) -> None:
        """Make ``entry_id`` the leaf (None: before the first entry); remembered across restarts."""
        self._check(entry_id)
        self._leaf = entry_id
        if entry_id != self._stored_leaf:
            marker = CustomEntry(
                id=self._new_id(),
                timestamp=self._clock(),
                parent_id=entry_id,
                custom_type=LEAF_MARKER,
                data={"leafId": entry_id},
            )
            self._append(marker)

    def _check(self, entry_id: str | None) -> None:
        if entry_id is not None and entry_id not in self.tree:
            raise KeyError(f"no entry {entry_id!r} in this session")

    def close(self) -> None:
        self.storage.close()


def branch_entries(log: SessionLog, leaf_id: str | None) -> list[SessionEntry]:
    """What a new session forked at ``leaf_id`` holds: the path (no labels, no leaf markers)
    followed by fresh label entries for the labelled entries on it, chained after the last."""
    path = log.path(leaf_id) if leaf_id is not None else []
    kinds = set(map(type, path))
    if LabelEntry in kinds or CustomEntry in kinds:
        path = _without_labels(path)
    labels = log.labels
    if not labels:
        return path
    ids = set(map(_ID, path))
    out: list[SessionEntry] = list(path)
    parent = path[-1].id if path else None
    for target, label in labels.items():
        if target in ids:
            new_id = new_entry_id(ids.__contains__)
            ids.add(new_id)
            out.append(LabelEntry(id=new_id, parent_id=parent, target_id=target, label=label))
            parent = new_id
    return out


_ID = attrgetter("id")


def _without_labels(path: list[SessionEntry]) -> list[SessionEntry]:
    """``path`` without its label entries and leaf markers, each entry that hung from one
    hanging from the entry kept before it instead (a copy: the source's entry is not changed).
    Without that, the copy's next message would name a parent it does not hold, and a reader
    would stop there."""
    kept: list[SessionEntry] = []
    for entry in path:
        if isinstance(entry, LabelEntry) or is_leaf_marker(entry):
            continue
        parent = kept[-1].id if kept else None
        kept.append(entry if entry.parent_id == parent else msgspec.structs.replace(entry, parent_id=parent))
    return kept


__all__ = ["SessionLog", "branch_entries"]
