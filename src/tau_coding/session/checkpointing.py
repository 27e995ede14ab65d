"""SessionCheckpoints: a checkpoint of the project before each prompt, and rewinds to one.

The files are snapshotted by ``tau_coding.checkpoints`` (in a thread: the first snapshot of a
large tree takes a moment, later ones milliseconds) and the checkpoint's id is written into
the session as a ``tau.checkpoint`` entry. A checkpoint that cannot be taken (no git, a tree
too large) never stops the prompt: ``error`` says why, and the prompt runs without one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from tau_agent.session.log import SessionLog
from tau_coding.checkpoints.changes import FileChange
from tau_coding.checkpoints.git import CheckpointError
from tau_coding.checkpoints.store import CheckpointStore, Restored
from tau_coding.session.checkpoint_entries import (
    CHECKPOINT_ENTRY,
    CheckpointRecord,
    checkpoint_records,
    entry_data,
)


@dataclass(frozen=True, slots=True)
class RewindPoint:
    """A checkpoint a rewind may go back to, and what changed in the files since."""

    record: CheckpointRecord
    changes: tuple[FileChange, ...]


class SessionCheckpoints:
    def __init__(self, store: CheckpointStore) -> None:
        self.store = store
        self.error: str | None = None  # why the last checkpoint could not be taken, if so

    async def before_prompt(self, log: SessionLog, session_ref: str) -> None:
        """Take a checkpoint and record it at the leaf of ``log``."""
        try:
            checkpoint = await asyncio.to_thread(self.store.take, session=session_ref)
        except CheckpointError as exc:
            self.error = str(exc)
            return
        self.error = None
        log.append_custom(CHECKPOINT_ENTRY, entry_data(checkpoint, "prompt"))

    def points(self, log: SessionLog) -> list[RewindPoint]:
        """Every checkpoint of ``log`` a rewind may go back to, oldest first, with the changes
        since each (CheckpointError when the files cannot be read)."""
        records = checkpoint_records(log.path(), log.entries)
        changes = self.store.changes_since([r.checkpoint_id for r in records]) if records else {}
        return [RewindPoint(r, changes[r.checkpoint_id]) for r in records if r.checkpoint_id in changes]

    def preview(self, checkpoint_id: str) -> tuple[FileChange, ...]:
        """The files a code restore to ``checkpoint_id`` would change (CheckpointError)."""
        return self.store.preview(checkpoint_id)

    def restore_code(self, log: SessionLog, checkpoint_id: str, session_ref: str) -> Restored:
        """Put the files back as ``checkpoint_id`` holds them; the files as they were become a
        "before rewind" checkpoint, recorded at the leaf of ``log``, so this can be undone."""
        restored = self.store.restore(checkpoint_id, session=session_ref)
        if restored.before is not None:
            log.append_custom(CHECKPOINT_ENTRY, entry_data(restored.before, "before rewind"))
        return restored


def find_record(records: Sequence[CheckpointRecord], checkpoint_id: str) -> CheckpointRecord | None:
    """The record of ``checkpoint_id`` (a checkpoint id, a unique prefix of one, or the id of
    its session entry)."""
    exact = [r for r in records if checkpoint_id in (r.checkpoint_id, r.entry_id)]
    if exact:
        return exact[-1]
    if len(checkpoint_id) >= 7:
        matches = [r for r in records if r.checkpoint_id.startswith(checkpoint_id)]
        if len(matches) == 1:
            return matches[0]
    return None


__all__ = ["RewindPoint", "SessionCheckpoints", "find_record"]
