"""RewindPortMixin: the TUI's RewindPort over SessionControl's checkpoints (session/rewind.py).

Mixed into ``CodingSessionPort``; it reads ``control`` and the settings getter the port keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tau_agent.harness import AgentBusyError
from tau_coding.checkpoints.changes import describe, summary, totals
from tau_coding.session.compaction.errors import SummaryError
from tau_coding.session.control import ControlError, SessionControl
from tau_coding.tui.port import CommandResult
from tau_coding.tui.rewind_port import DoubleEscapeAction, RewindChoice, RewindPoints, RewindRow

_ACTIONS: tuple[DoubleEscapeAction, ...] = ("tree", "fork", "rewind", "none")
_DONE = {
    "both": "Rewound code and conversation",
    "conversation": "Rewound the conversation",
    "code": "Restored the code",
    "summarize": "Rewound the conversation with a summary of what followed",
}


class RewindPortMixin:
    control: SessionControl
    _settings: Callable[[], Mapping[str, Any]]

    def rewind_points(self) -> RewindPoints:
        try:
            points = self.control.list_checkpoints()
        except ControlError as exc:
            return RewindPoints(error=str(exc))
        rows = []
        for point in points:
            record = point.record
            label = record.prompt if record.kind == "prompt" else f"before rewind ({record.timestamp[11:19]})"
            added, removed = totals(point.changes)
            rows.append(
                RewindRow(
                    record.checkpoint_id, label or "", record.timestamp, len(point.changes), added, removed
                )
            )
        return RewindPoints(rows)

    def rewind_preview(self, checkpoint_id: str) -> CommandResult:
        try:
            changes = self.control.preview_checkpoint(checkpoint_id)
        except ControlError as exc:
            return CommandResult(str(exc), is_error=True)
        if not changes:
            return CommandResult("The files already match this checkpoint.")
        lines = [describe(c) for c in changes[:40]]
        if len(changes) > 40:
            lines.append(f"… and {len(changes) - 40} more")
        return CommandResult("\n".join([summary(changes), *lines]))

    async def rewind(self, checkpoint_id: str, choice: RewindChoice) -> CommandResult:
        try:
            outcome = await self.control.restore_checkpoint(checkpoint_id, choice)
        except (ControlError, AgentBusyError, SummaryError) as exc:
            return CommandResult(str(exc), is_error=True)
        message = _DONE[choice]
        restored = outcome.restored
        if restored is not None:
            message += f' ({summary(restored.changes)}); /rewind again offers "before rewind" to undo it'
        return CommandResult(
            message + ".", editor_text=outcome.editor_text, replaced_transcript=choice != "code"
        )

    def double_escape_action(self) -> DoubleEscapeAction:
        wanted = self._settings().get("doubleEscapeAction")
        return next((a for a in _ACTIONS if a == wanted), "tree")


__all__ = ["RewindPortMixin"]
