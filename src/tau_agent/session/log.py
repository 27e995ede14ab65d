"""SessionLog: a session being worked on: its storage, its tree, and where the next entry goes.

Every ``append_*`` builds one entry as a child of the current leaf, hands it to the storage
(one line on disk for a file storage) and moves the leaf onto it: O(1), the tree updated
in place. ``navigate`` moves the leaf without adding history; when the new leaf differs
from what a reader of the stored entries would resume at, a leaf marker (entries.py) is
appended so that resuming later, in Tau or in Pi, lands on the same path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from tau_agent.content import ImageContent, TextContent
from tau_agent.messages import AgentMessage, BranchSummaryMessage, CompactionSummaryMessage
from tau_agent.session.branch import Branch, branch
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
        made_from: Branch | None = None,
    ) -> None:
        """``new_id`` and ``clock`` make ids and timestamps predictable (golden files, tests);
        by default ids are random 8-hex strings checked against the tree, times are now.
        ``made_from``: the branch of another session that ``storage`` was made to hold (its
        entries, the same objects): its index and replay are used instead of building them."""
        self.storage = storage
        self._id_source = new_id
        self._clock = clock
        entries = storage.entries
        if made_from is not None and not _holds(entries, made_from.entries):
            made_from = None
        tree = made_from.tree if made_from is not None else storage.take_tree()
        self.tree = tree if tree is not None else SessionTree(entries)
        # The latest replay (its own lists): the path to a leaf never changes, so it is the
        # replay at its leaf for as long as the session is open, labels and name aside.
        self._replayed = made_from.replay if made_from is not None else None
        self._leaf = resume_leaf(entries)
        self._stored_leaf = self._leaf
        known = made_from.labels_and_name if made_from is not None else None
        self._labels, self._name = known if known is not None else collect_labels_and_name(entries)

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
        """Replay at the current leaf (a fresh object each time: the caller may change it)."""
        replayed = self._replayed
        if replayed is None or replayed.leaf_id != self._leaf:
            replayed = SessionState.from_entries(
                self.storage.entries, self._leaf, self.tree, (self._labels, self._name)
            )
            self._replayed = _copied(replayed)
            return replayed
        state = _copied(replayed)
        state.labels, state.name = dict(self._labels), self._name
        return state

    def branch(self, leaf_id: str | None) -> Branch:
        """What a new session forked at ``leaf_id`` holds (None: nothing): the path without
        label entries and leaf markers, then fresh label entries for the labelled entries on
        it, chained after the last; with its index and replay when they can be made from
        this session's (branch.py). Give it to the new session's ``SessionLog``."""
        return branch(self.tree, leaf_id, self._labels, self._replayed)

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
    """What a new session forked at ``leaf_id`` holds (``SessionLog.branch``'s entries)."""
    return log.branch(leaf_id).entries


def _holds(entries: Sequence[SessionEntry], branched: Sequence[SessionEntry]) -> bool:
    return len(entries) == len(branched) and (not entries or entries[-1] is branched[-1])


def _copied(state: SessionState) -> SessionState:
    return dataclasses.replace(
        state,
        messages=list(state.messages),
        message_entry_ids=list(state.message_entry_ids),
        labels=dict(state.labels),
    )


__all__ = ["SessionLog", "branch_entries"]
