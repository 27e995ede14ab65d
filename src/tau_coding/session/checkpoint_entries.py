"""Checkpoints as a session records them: ``custom`` entries of type ``tau.checkpoint``. Pure.

Pi and other readers skip custom entries they do not know, so the entries travel with the
session file (resume, fork) without harm. A ``prompt`` checkpoint is appended just before the
user message it precedes; a ``before rewind`` one at the leaf a rewind leaves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tau_agent.content import text_of
from tau_agent.messages import UserMessage
from tau_agent.session.entries import CustomEntry, MessageEntry, SessionEntry
from tau_coding.checkpoints.skips import Skipped
from tau_coding.checkpoints.store import Checkpoint

CHECKPOINT_ENTRY = "tau.checkpoint"
CheckpointKind = Literal["prompt", "before rewind"]


@dataclass(frozen=True, slots=True)
class CheckpointRecord:
    """One checkpoint entry of a session: ``entry_id`` is the custom entry (restoring the
    conversation moves the leaf there); ``prompt`` is the text of the user message that
    followed it, if any."""

    entry_id: str
    checkpoint_id: str
    timestamp: str
    kind: CheckpointKind
    prompt: str | None = None
    message_entry_id: str | None = None
    skipped: tuple[Skipped, ...] = ()


def entry_data(checkpoint: Checkpoint, kind: CheckpointKind) -> dict[str, Any]:
    """What the custom entry holds for ``checkpoint``."""
    data: dict[str, Any] = {"id": checkpoint.id, "kind": kind}
    if checkpoint.skipped:
        data["skipped"] = [{"path": s.path, "reason": s.reason} for s in checkpoint.skipped]
    return data


def _record(entry: CustomEntry) -> CheckpointRecord | None:
    data = entry.data
    if entry.custom_type != CHECKPOINT_ENTRY or not isinstance(data, dict):
        return None
    checkpoint_id = data.get("id")
    if not isinstance(checkpoint_id, str):
        return None
    kind: CheckpointKind = "before rewind" if data.get("kind") == "before rewind" else "prompt"
    skipped = tuple(
        Skipped(str(item.get("path")), str(item.get("reason")))
        for item in data.get("skipped") or ()
        if isinstance(item, dict)
    )
    return CheckpointRecord(entry.id, checkpoint_id, entry.timestamp, kind, skipped=skipped)


def checkpoint_records(
    path: Sequence[SessionEntry], everything: Sequence[SessionEntry]
) -> list[CheckpointRecord]:
    """The checkpoints a rewind may go back to, oldest first: the prompt checkpoints on the
    current ``path`` (each with the prompt that followed it) and every "before rewind" one in
    the session (``everything``), wherever the tree has moved since."""
    records: list[CheckpointRecord] = []
    pending: CheckpointRecord | None = None
    for entry in path:
        if isinstance(entry, CustomEntry):
            record = _record(entry)
            if record is not None and record.kind == "prompt":
                pending = record
        elif isinstance(entry, MessageEntry) and isinstance(entry.message, UserMessage):
            if pending is not None:
                text = text_of(entry.message.content)
                records.append(
                    CheckpointRecord(
                        pending.entry_id,
                        pending.checkpoint_id,
                        pending.timestamp,
                        "prompt",
                        text,
                        entry.id,
                        pending.skipped,
                    )
                )
            pending = None
    for entry in everything:
        if isinstance(entry, CustomEntry):
            record = _record(entry)
            if record is not None and record.kind == "before rewind":
                records.append(record)
    order = {entry.id: index for index, entry in enumerate(everything)}
    return sorted(records, key=lambda r: order.get(r.entry_id, -1))


__all__ = ["CHECKPOINT_ENTRY", "CheckpointKind", "CheckpointRecord", "checkpoint_records", "entry_data"]
