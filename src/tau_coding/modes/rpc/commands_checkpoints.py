"""Handlers of the checkpoint commands: ``list_checkpoints`` and ``restore_checkpoint``.

``restore_checkpoint`` names the checkpoint in ``checkpointId`` (the ``id`` that
``list_checkpoints`` gives): a command's own ``id`` is its request id. A restore is refused while a run or a user's bash command goes on. ``restore`` is ``code``,
``conversation`` or ``both`` (Tau also takes ``summarize``: the conversation goes back with a
summary of what followed, which asks the model, so that answer comes when it is done).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tau_coding.checkpoints.changes import FileChange, totals
from tau_coding.modes.rpc.fields import Fields
from tau_coding.modes.rpc.responses import CommandError, failure, success
from tau_coding.modes.rpc.server import DEFERRED, Handler, RpcServer
from tau_coding.session.checkpointing import RewindPoint
from tau_coding.session.rewind import RESTORE_CHOICES, RewindOutcome


def changes_to_list(changes: Sequence[FileChange]) -> list[dict[str, Any]]:
    return [{"path": c.path, "change": c.kind, "added": c.added, "removed": c.removed} for c in changes]


def point_to_dict(point: RewindPoint) -> dict[str, Any]:
    record = point.record
    added, removed = totals(point.changes)
    return {
        "id": record.checkpoint_id,
        "entryId": record.entry_id,
        "leafId": record.leaf_id,
        "messageEntryId": record.message_entry_id,
        "timestamp": record.timestamp,
        "kind": record.kind,
        "prompt": record.prompt,
        "changedFiles": changes_to_list(point.changes),
        "linesAdded": added,
        "linesRemoved": removed,
        "skipped": [{"path": s.path, "reason": s.reason} for s in record.skipped],
    }


def outcome_to_dict(outcome: RewindOutcome, leaf_id: str | None) -> dict[str, Any]:
    restored = outcome.restored
    return {
        "id": outcome.record.checkpoint_id,
        "changedFiles": changes_to_list(restored.changes) if restored else [],
        "beforeRewindId": restored.before.id if restored and restored.before else None,
        "text": outcome.editor_text,
        "leafId": leaf_id,
    }


async def list_checkpoints(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return {"checkpoints": [point_to_dict(p) for p in server.control.list_checkpoints()]}


async def restore_checkpoint(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    # Not "id": every command's "id" is its request id, echoed in the response.
    checkpoint_id = fields.text("checkpointId", non_empty=True)
    restore = str(fields.choice("restore", RESTORE_CHOICES))
    if server.is_streaming or server.bash_running:
        raise CommandError("Cannot rewind while the agent is running; abort it first")
    control = server.control

    async def work() -> None:
        try:
            outcome = await control.restore_checkpoint(checkpoint_id, restore)
        except Exception as exc:
            server.out.send(failure("restore_checkpoint", request_id, str(exc) or type(exc).__name__))
            return
        data = outcome_to_dict(outcome, control.session.log.leaf_id)
        server.out.send(success("restore_checkpoint", request_id, data))

    if restore == "summarize":
        server.spawn(work())
        return DEFERRED
    await work()
    return DEFERRED


CHECKPOINT_HANDLERS: dict[str, Handler] = {
    "list_checkpoints": list_checkpoints,
    "restore_checkpoint": restore_checkpoint,
}

__all__ = ["CHECKPOINT_HANDLERS", "point_to_dict"]
