"""Handlers of the permission commands (docs/rpc.md, docs/permissions.md).

``get_permission_mode`` answers ``{"permissionMode": ..., "rememberedRules": [...]}``;
``set_permission_mode`` takes ``mode`` (Tau's names or Claude Code's) and answers the mode now
in force. Leaving plan mode is ``set_permission_mode`` once the client approved the plan.
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


PERMISSION_HANDLERS: dict[str, Handler] = {
    "get_permission_mode": get_permission_mode,
    "set_permission_mode": set_permission_mode,
}

__all__ = ["PERMISSION_HANDLERS"]
