"""Checkpoints as a session records them: ``custom`` entries of type ``tau.checkpoint``. Pure.

Pi and other readers skip custom entries they do not know, so the entries travel with the
session file (resume, fork) without harm. A ``prompt`` checkpoint is taken while its prompt
runs, so its entry is appended once it exists, after the prompt's user message, and names that
message (``message``); entries written by earlier versions have no ``message`` and sit just
before the user message they belong to. A ``before rewind`` one is appended at the leaf a
rewind leaves.
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
    """One checkpoint entry of a session: ``entry_id`` is the custom entry; ``leaf_id`` is
    where restoring the conversation moves the leaf (just before the prompt; None: before the
    first entry); ``prompt`` is the text of the user message it belongs to, if any."""

    entry_id: str
    leaf_id: str | None
    checkpoint_id: str
    timestamp: str
    kind: CheckpointKind
    prompt: str | None = None
    message_entry_id: str | None = None
    skipped: tuple[Skipped, ...] = ()


def entry_data(checkpoint: Checkpoint, kind: CheckpointKind, message: str | None = None) -> dict[str, Any]:
    """What the custom entry holds for ``checkpoint`` (``message``: the entry id of the user
    message of the prompt it was taken for)."""
    data: dict[str, Any] = {"id": checkpoint.id, "kind": kind}
    if message is not None:
        data["message"] = message
    if checkpoint.skipped:
        data["skipped"] = [{"path": s.path, "reason": s.reason} for s in checkpoint.skipped]
    return data


def _record(entry: CustomEntry) -> tuple[CheckpointRecord, str | None] | None:
    """The record of ``entry`` (its leaf is the entry itself) and the message it names."""
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
    message = data.get("message")
    record = CheckpointRecord(entry.id, entry.id, checkpoint_id, entry.timestamp, kind, skipped=skipped)
    return record, message if isinstance(message, str) else None


def checkpoint_records(
    path: Sequence[SessionEntry], everything: Sequence[SessionEntry]
) -> list[CheckpointRecord]:
    """The checkpoints a rewind may go back to, oldest first: the prompt checkpoints on the
    current ``path`` (each with the prompt that followed it) and every "before rewind" one in
    the session (``everything``), wherever the tree has moved since."""
    records: list[CheckpointRecord] = []
    pending: CheckpointRecord | None = None  # an entry of an earlier version: before its message
    messages: dict[str, MessageEntry] = {}
    for entry in path:
        if isinstance(entry, CustomEntry):
            found = _record(entry)
            if found is None or found[0].kind != "prompt":
                continue
            record, message_id = found
            if message_id is None:
                pending = record
            elif message_id in messages:
                message = messages[message_id]
                records.append(_for_message(record, message, message.parent_id))
        elif isinstance(entry, MessageEntry) and isinstance(entry.message, UserMessage):
            messages[entry.id] = entry
            if pending is not None:
                records.append(_for_message(pending, entry, pending.entry_id))
            pending = None
    for entry in everything:
        if isinstance(entry, CustomEntry):
            found = _record(entry)
            if found is not None and found[0].kind == "before rewind":
                records.append(found[0])
    order = {entry.id: index for index, entry in enumerate(everything)}
    return sorted(records, key=lambda r: order.get(r.entry_id, -1))


def _for_message(record: CheckpointRecord, message: MessageEntry, leaf_id: str | None) -> CheckpointRecord:
    text = text_of(message.message.content) if isinstance(message.message, UserMessage) else None
    return CheckpointRecord(
        record.entry_id,
        leaf_id,
        record.checkpoint_id,
        record.timestamp,
        "prompt",
        text,
        message.id,
        record.skipped,
    )


__all__ = ["CHECKPOINT_ENTRY", "CheckpointKind", "CheckpointRecord", "checkpoint_records", "entry_data"]
