"""``tau --mode rpc``: Pi's RPC protocol over stdin and stdout (see server.py for the rules)."""

from __future__ import annotations

from tau_coding.modes.rpc.commands_checkpoints import CHECKPOINT_HANDLERS
from tau_coding.modes.rpc.commands_login import LOGIN_HANDLERS
from tau_coding.modes.rpc.commands_mcp import MCP_HANDLERS
from tau_coding.modes.rpc.commands_permissions import PERMISSION_HANDLERS
from tau_coding.modes.rpc.commands_run import RUN_HANDLERS
from tau_coding.modes.rpc.commands_session import SESSION_HANDLERS
from tau_coding.modes.rpc.output import RpcOutput
from tau_coding.modes.rpc.server import Handler, RpcServer
from tau_coding.session.control import SessionControl

HANDLERS: dict[str, Handler] = {
    **RUN_HANDLERS,
    **SESSION_HANDLERS,
    **PERMISSION_HANDLERS,
    **CHECKPOINT_HANDLERS,
    **LOGIN_HANDLERS,
    **MCP_HANDLERS,
}


def make_server(control: SessionControl, output: RpcOutput) -> RpcServer:
    """A server answering every command of the protocol for ``control``'s session."""
    return RpcServer(control, output, HANDLERS)


__all__ = ["HANDLERS", "make_server"]
