"""Rewinding a session to a checkpoint: the code, the conversation, both, or a summary.

``code`` puts the files back (a "before rewind" checkpoint keeps what they were);
``conversation`` moves the session's leaf to just before the checkpoint's prompt, so that
prompt and everything after leave the context (its text is handed back for the editor); ``both``
does the two; ``summarize`` moves the leaf there too but records a summary of the path left
behind (the branch-summary compaction), leaving the files as they are. Every failure is a
``CheckpointError`` whose message is one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, get_args

from tau_coding.checkpoints.git import CheckpointError
from tau_coding.checkpoints.store import Restored
from tau_coding.session.checkpoint_entries import CheckpointRecord, checkpoint_records
from tau_coding.session.checkpointing import SessionCheckpoints, find_record
from tau_coding.session.coding_session import CodingSession

RestoreChoice = Literal["code", "conversation", "both", "summarize"]
RESTORE_CHOICES: tuple[RestoreChoice, ...] = get_args(RestoreChoice)


@dataclass(frozen=True, slots=True)
class RewindOutcome:
    """``restored``: what the code restore did (None when the code was left alone);
    ``editor_text``: the prompt that followed the checkpoint, when the conversation went back
    before it."""

    record: CheckpointRecord
    restored: Restored | None
    editor_text: str | None


def session_ref(session: CodingSession) -> str:
    """How a checkpoint names its session: the session file, else the session id."""
    return str(session.session_file or session.session_id)


def checkpoints_of(session: CodingSession) -> SessionCheckpoints:
    if session.checkpoints is None:
        raise CheckpointError("checkpoints are off (--no-checkpoints or checkpoints.enabled: false)")
    return session.checkpoints


def find(session: CodingSession, checkpoint_id: str) -> CheckpointRecord:
    log = session.log
    record = find_record(checkpoint_records(log.path(), log.entries), checkpoint_id)
    if record is None:
        raise CheckpointError(f"no checkpoint {checkpoint_id!r} in this session")
    return record


async def rewind(
    session: CodingSession,
    checkpoint_id: str,
    restore: str,
    navigate: Callable[[str | None], None],
    summarize_move: Callable[[str | None], Awaitable[object]],
) -> RewindOutcome:
    """Rewind ``session`` as ``restore`` says; ``navigate`` moves the conversation's leaf,
    ``summarize_move`` moves it with a summary of the path left behind (asking extensions'
    ``session_before_tree`` as ``/tree`` does)."""
    if restore not in RESTORE_CHOICES:
        raise CheckpointError(f"unknown restore {restore!r}; one of {', '.join(RESTORE_CHOICES)}")
    checkpoints = checkpoints_of(session)
    record = find(session, checkpoint_id)
    restored = None
    if restore in ("code", "both"):
        restored = await asyncio.to_thread(
            checkpoints.restore_code, session.log, record.checkpoint_id, session_ref(session)
        )
    if restore in ("conversation", "both"):
        navigate(record.leaf_id)
    elif restore == "summarize":
        await summarize_move(record.leaf_id)
    moved = restore != "code"
    return RewindOutcome(record, restored, record.prompt if moved else None)


__all__ = [
    "RESTORE_CHOICES",
    "RestoreChoice",
    "RewindOutcome",
    "checkpoints_of",
    "find",
    "rewind",
    "session_ref",
]
