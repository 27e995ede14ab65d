"""Handlers of the permission commands (docs/rpc.md, docs/permissions.md).

``get_permission_mode`` answers ``{"permissionMode": ..., "rememberedRules": [...]}``;
``set_permission_mode`` takes ``mode`` (Tau's names or Claude Code's) and answers the mode now
in force. ``approve_plan`` leaves plan mode the way the TUI's approval does (the plan's steps
become the task list, and the model is told to carry it out); ``set_permission_mode`` leaves it
without either.
Approvals themselves arrive as ``extension_ui_request`` ``select`` dialogs.
"""

from __future__ import annotations

from typing import Any

from tau_coding.modes.rpc.fields import Fields
from tau_coding.modes.rpc.responses import CommandError
from tau_coding.modes.rpc.server import Handler, RpcServer
from tau_coding.permissions.gate import PermissionGate
from tau_coding.permissions.modes import known_names, parse_mode


def _gate(server: RpcServer) -> PermissionGate:
    gate = server.control.session.permissions
    if gate is None:
        raise CommandError("this session has no permission engine")
    return gate


async def get_permission_mode(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    gate = _gate(server)
    return {"permissionMode": gate.mode, "rememberedRules": list(gate.remembered)}


async def set_permission_mode(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    name = fields.text("mode", non_empty=True)
    mode = parse_mode(name)
    if mode is None:
        raise CommandError(f"unknown permission mode {name!r}; known modes: {known_names()}")
    gate = _gate(server)
    gate.set_mode(mode)
    return {"permissionMode": gate.mode}


async def approve_plan(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    """Plan mode's approval: the plan's steps become the task list, the mode becomes ``mode``
    (default ``ask``) and a run starts that carries the plan out; answered when accepted."""
    name = fields.optional_text("mode") or "ask"
    mode = parse_mode(name)
    if mode is None:
        raise CommandError(f"unknown permission mode {name!r}; known modes: {known_names()}")
    if server.is_streaming or server.bash_running:
        raise CommandError("Cannot approve the plan while the agent or a bash command is running")
    message = server.control.approve_plan(mode)
    session = server.control.session
    server.start_run("approve_plan", request_id, lambda: session.prompt_batches(message, []))
    return {"permissionMode": _gate(server).mode}


PERMISSION_HANDLERS: dict[str, Handler] = {
    "get_permission_mode": get_permission_mode,
    "set_permission_mode": set_permission_mode,
    "approve_plan": approve_plan,
}

__all__ = ["PERMISSION_HANDLERS"]
