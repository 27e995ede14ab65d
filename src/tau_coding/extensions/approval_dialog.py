"""The approval question as a frontend dialog: a ``select`` in the TUI and, in RPC mode, an
``extension_ui_request`` (method ``select``) the client answers (docs/rpc.md).

Options, in this order (the last two only when there are rules to remember):

* ``Yes, once``
* ``Yes, and allow <rules> for this session``
* ``Yes, and add <rules> to .tau/settings.json``
* ``No, and tell the model why`` (then an ``input`` dialog for the reason; empty is fine)

A dialog cancelled, timed out or answered with anything else is a "no".
"""

from __future__ import annotations

from tau_coding.extensions.ui import UIBridge
from tau_coding.permissions.approver import Approval, ApprovalRequest

YES_ONCE = "Yes, once"
NO = "No, and tell the model why"


def options_for(request: ApprovalRequest) -> list[str]:
    """The dialog's options for ``request`` (module notes)."""
    options = [YES_ONCE]
    if request.suggestions:
        rules = ", ".join(request.suggestions)
        options += [f"Yes, and allow {rules} for this session", f"Yes, and add {rules} to .tau/settings.json"]
    return [*options, NO]


PREVIEW_LINES = 16  # of a change's diff in the question; the dialog must fit a small screen


def title_for(request: ApprovalRequest) -> str:
    """The question, and below it what the call would change (its first ``PREVIEW_LINES``)."""
    question = f"Allow {request.summary}? ({request.reason})"
    if not request.preview:
        return question
    lines = request.preview.rstrip("\n").split("\n")
    if len(lines) > PREVIEW_LINES:
        rest = len(lines) - PREVIEW_LINES + 1
        lines = [*lines[: PREVIEW_LINES - 1], f"… {rest} more lines"]
    return question + "\n\n" + "\n".join(lines)


class DialogApprover:
    """An Approver over a frontend's dialogs."""

    def __init__(self, ui: UIBridge) -> None:
        self.ui = ui

    async def __call__(self, request: ApprovalRequest) -> Approval:
        options = options_for(request)
        chosen = await self.ui.select(title_for(request), options)
        if chosen == YES_ONCE:
            return Approval("once")
        if chosen is not None and chosen in options[1:-1]:
            return Approval("session" if options.index(chosen) == 1 else "project")
        if chosen != NO:
            return Approval("deny")
        reason = await self.ui.input("Why not? (the model reads this)", placeholder="optional")
        return Approval("deny", (reason or "").strip())
