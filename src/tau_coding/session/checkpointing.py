"""SessionCheckpoints: a checkpoint of the project for each prompt, and rewinds to one.

The files are snapshotted by ``tau_coding.checkpoints`` in a thread that starts with the
prompt, while the model is asked (``PendingCheckpoint``): a tool that may change files waits
for it first (session/permission_seam.py), so the checkpoint holds the files as they were
before the prompt, and a prompt whose tools only read costs no wait at all. Once the
checkpoint exists, its id is written into the session as a ``tau.checkpoint`` entry naming the
prompt's user message (checkpoint_entries.py). A checkpoint that cannot be taken (no git, a
tree too large) never stops the prompt: ``error`` says why, and the prompt runs without one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from tau_agent.cancellation import CancellationToken
from tau_agent.hooks import BeforeToolCallResult, ToolCallContext
from tau_agent.session.log import SessionLog
from tau_coding.checkpoints.changes import FileChange
from tau_coding.checkpoints.store import Checkpoint, CheckpointStore, Restored
from tau_coding.permissions.engine import READ_ONLY, SELF_CONTAINED
from tau_coding.session.checkpoint_entries import (
    CHECKPOINT_ENTRY,
    CheckpointRecord,
    checkpoint_records,
    entry_data,
)

_CHANGE_NOTHING = READ_ONLY | SELF_CONTAINED  # a task's child calls pass the same seam


def may_change_files(tool: str) -> bool:
    """Whether a call of ``tool`` waits for the prompt's checkpoint: every tool (extensions'
    and MCP tools included) but those known to only read or to change no file themselves."""
    return tool not in _CHANGE_NOTHING


class CheckpointWait:
    """The harness's ``before_tool_call`` of a session without a permission gate: a call that
    may change files waits for ``ready`` (session/permission_seam.py does this after its
    check)."""

    def __init__(self, ready: Callable[[], Awaitable[None]]) -> None:
        self.ready = ready

    async def __call__(
        self, context: ToolCallContext, signal: CancellationToken
    ) -> BeforeToolCallResult | None:
        if may_change_files(context.tool_call.name):
            await self.ready()
        return None


@dataclass(frozen=True, slots=True)
class RewindPoint:
    """A checkpoint a rewind may go back to, and what changed in the files since."""

    record: CheckpointRecord
    changes: tuple[FileChange, ...]


class PendingCheckpoint:
    """The checkpoint of one prompt, taken in a thread while the prompt runs.

    ``ready`` waits until it is taken (or failed). ``record`` writes its entry at the leaf of
    the log once both it exists and the prompt's user message is written (``message_id``), at
    most once: the session never names a checkpoint the store does not hold yet."""

    def __init__(self, owner: SessionCheckpoints, work: asyncio.Future[Checkpoint]) -> None:
        self._owner = owner
        self._work = work
        self.message_id: str | None = None
        self.recorded = False

    def message_written(self, entry_id: str | None) -> None:
        """A user message was written as ``entry_id`` (None: it could not be); the first one
        is the prompt's."""
        if self.message_id is None and not self.recorded:
            if entry_id is None:
                self.recorded = True  # nothing to hang the entry on
            self.message_id = entry_id

    async def ready(self) -> None:
        """Wait until the files are in the checkpoint; a failure is left for ``record``."""
        if not self._work.done():
            await asyncio.wait([self._work])

    def record(self, log: SessionLog) -> None:
        """Append the entry if the checkpoint is taken and the user message written."""
        if self.recorded or self.message_id is None or not self._work.done():
            return
        self.recorded = True
        if self._work.cancelled():
            return
        failure = self._work.exception()
        if failure is not None:  # an unwritable data dir too: the prompt goes on without one
            self._owner.error = str(failure) or type(failure).__name__
            return
        self._owner.error = None
        log.append_custom(CHECKPOINT_ENTRY, entry_data(self._work.result(), "prompt", self.message_id))

    def drop(self) -> None:
        """No more recording (the run is over); a failure still to come is read, so asyncio
        does not report it as never retrieved."""
        self.recorded = True
        self._work.add_done_callback(lambda work: work.cancelled() or work.exception())


class SessionCheckpoints:
    def __init__(self, store: CheckpointStore) -> None:
        self.store = store
        self.error: str | None = None  # why the last checkpoint could not be taken, if so

    def begin(self, session_ref: str) -> PendingCheckpoint:
        """Start taking the checkpoint of a prompt about to run (in a thread)."""
        work = asyncio.ensure_future(asyncio.to_thread(self.store.take, session=session_ref))
        return PendingCheckpoint(self, work)

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


__all__ = [
    "CheckpointWait",
    "PendingCheckpoint",
    "RewindPoint",
    "SessionCheckpoints",
    "find_record",
    "may_change_files",
]
