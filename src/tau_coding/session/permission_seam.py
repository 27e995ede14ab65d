"""Where tool calls are gated: the harness's ``before_tool_call`` asks the session's
PermissionGate (tau_coding.permissions) before any tool runs. A call it lets through that may
change files (checkpointing.may_change_files) then waits for ``ready``: the running prompt's
checkpoint, taken while the model was asked (session/checkpointing.py).

Without extensions this seam is the harness's gate itself; with them, the extension doors
(extensions/doors.py) run the extensions' ``tool_call`` handlers and shell hooks first and
then this seam with their word (a hook's allow/ask), so every call passes the one engine.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from tau_agent.cancellation import CancellationToken
from tau_agent.hooks import BeforeToolCallResult, ToolCallContext
from tau_coding.permissions.gate import HookHint, PermissionGate
from tau_coding.permissions.modes import PermissionMode
from tau_coding.session.checkpointing import may_change_files

if TYPE_CHECKING:
    from tau_coding.session.coding_session import CodingSession

PLAN_NOTE = (
    "\n\n# Plan mode\n"
    "You are in plan mode: only read-only tools (read, grep, find, ls) run; edits, writes and "
    "commands are refused. Study the code, then present a concise, numbered plan and stop. The "
    "user leaves plan mode by approving the plan; then you carry it out."
)


def with_mode_note(system_prompt: str, mode: PermissionMode) -> str:
    """``system_prompt`` with the plan-mode note in plan mode, without it otherwise."""
    base = system_prompt.replace(PLAN_NOTE, "")
    return base + PLAN_NOTE if mode == "plan" else base


class PermissionSeam:
    """The harness seam over one gate; ``check`` is what the extension doors call."""

    def __init__(self, gate: PermissionGate, ready: Callable[[], Awaitable[None]] | None = None) -> None:
        self.gate = gate
        self.ready = ready

    async def __call__(
        self, context: ToolCallContext, signal: CancellationToken
    ) -> BeforeToolCallResult | None:
        return await self.check(context.tool_call.name, context.args)

    async def check(
        self, tool: str, args: Mapping[str, Any], hint: HookHint = None
    ) -> BeforeToolCallResult | None:
        error = await self.gate.check(tool, args, hint)
        if error is not None:
            return BeforeToolCallResult(block=True, reason=error)
        if self.ready is not None and may_change_files(tool):
            await self.ready()
        return None


def install_permissions(session: CodingSession, gate: PermissionGate) -> PermissionSeam:
    """Gate every tool call of ``session`` through ``gate``; the system prompt follows the mode.
    Call before extensions bind (they run their handlers, then this seam)."""
    seam = PermissionSeam(gate, session.checkpoint_ready)
    session.permissions = gate
    session.harness.before_tool_call = seam

    def follow(mode: PermissionMode) -> None:
        session.harness.system_prompt = with_mode_note(session.harness.system_prompt, mode)

    gate.on_mode_change(follow)
    follow(gate.mode)
    return seam
