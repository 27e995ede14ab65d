"""The permission mode in the TUI: Shift+Tab cycles it; a plan is approved in a dialog.

In plan mode, when a run ends the user picks "approve the plan" (its steps become the task
list, the mode becomes ``ask`` or ``accept-edits`` and the model is told to carry the plan out)
or "refine the plan" (the mode stays; the user's feedback is sent as the next prompt).
"""

from __future__ import annotations

from tau_coding.tui.screens.dialogs import TuiDialogs
from tau_coding.tui.shell.command_host import CommandHost

APPROVE_ASK = "Approve the plan and start (ask before edits)"
APPROVE_EDITS = "Approve the plan and start (accept edits)"
REFINE = "Refine the plan"
PLAN_CHOICES = (APPROVE_ASK, APPROVE_EDITS, REFINE)
STILL_PLANNING = "Still in plan mode: say what to change, or Shift+Tab to leave it."


def cycle(app: CommandHost) -> None:
    mode = app.port.cycle_permission_mode()
    if mode is None:
        app.notify("This session has no permission modes.")
        return
    app.refresh_footer()
    app.notify(f"Permission mode: {mode}", timeout=1.5)


def offer_plan(app: CommandHost) -> None:
    """After a run in plan mode, ask whether the plan is approved (in a worker: never blocks)."""
    if app.port.info().permission_mode == "plan":
        app.run_worker(_offer(app), group="plan")


async def _offer(app: CommandHost) -> None:
    dialogs = TuiDialogs(app, asking=app.key_guard.asking)
    chosen = await dialogs.ask_choice("The plan is ready", PLAN_CHOICES)
    if chosen == REFINE:
        feedback = await dialogs.ask_text("What should change in the plan?")
        if feedback is not None and feedback.strip():
            app.send(feedback.strip())  # still plan mode: the model revises the plan
            return
    if chosen not in (APPROVE_ASK, APPROVE_EDITS):
        app.notice(STILL_PLANNING)
        return
    message = app.port.approve_plan("ask" if chosen == APPROVE_ASK else "accept-edits")
    app.refresh_footer()
    app.send(message)
