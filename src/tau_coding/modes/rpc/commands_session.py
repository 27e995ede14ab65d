"""Handlers of the commands about the session: state, models, sessions, the tree, export.

Operations that replace the transcript (new, switch, fork, navigate, reload) are refused
while a run goes on; the error says to abort first.
"""

from __future__ import annotations

from typing import Any

from tau_agent.wire import message_to_dict
from tau_coding.modes.rpc.fields import Fields
from tau_coding.modes.rpc.responses import NO_DATA, CommandError
from tau_coding.modes.rpc.server import Handler, RpcServer
from tau_coding.modes.rpc.shapes import (
    model_to_dict,
    resource_commands,
    session_info_to_dict,
    tree_entry_to_dict,
)
from tau_coding.session.control import ChangeRefusedError


def _idle(server: RpcServer, what: str) -> None:
    if server.is_streaming or server.bash_running:
        raise CommandError(f"Cannot {what} while the agent is running; abort it first")


async def get_state(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    control = server.control
    session = control.session
    harness = session.harness
    file = session.session_file
    data: dict[str, Any] = {
        "model": model_to_dict(session.model),
        "thinkingLevel": session.thinking_level,
        "isStreaming": server.is_streaming,
        "isCompacting": control.is_compacting,
        "steeringMode": harness.steering_mode,
        "followUpMode": harness.follow_up_mode,
        "sessionId": session.session_id,
        "autoCompactionEnabled": control.auto_compaction_enabled,
        "messageCount": len(session.messages),
        "pendingMessageCount": harness.pending_count,
    }
    if file is not None:
        data["sessionFile"] = str(file)
    if session.log.name:
        data["sessionName"] = session.log.name
    return data


async def get_messages(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return {"messages": [message_to_dict(m) for m in server.control.session.messages]}


async def set_model(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    model = server.control.set_model(fields.text("provider"), fields.text("modelId"))
    return model_to_dict(model)


async def cycle_model(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    model = server.control.cycle_model()
    if model is None:
        return None
    return {
        "model": model_to_dict(model),
        "thinkingLevel": server.control.session.thinking_level,
        "isScoped": bool(server.control.scoped),
    }


async def get_available_models(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return {"models": [model_to_dict(m) for m in server.control.available_models()]}


async def set_thinking_level(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    server.control.set_thinking_level(fields.text("level"))
    return NO_DATA


async def cycle_thinking_level(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    level = server.control.cycle_thinking_level()
    return None if level is None else {"level": level}


async def set_steering_mode(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    server.control.set_steering_mode(fields.text("mode"))
    return NO_DATA


async def set_follow_up_mode(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    server.control.set_follow_up_mode(fields.text("mode"))
    return NO_DATA


async def new_session(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    parent = fields.optional_text("parentSession")
    _idle(server, "start a new session")
    try:
        await server.control.asking(lambda: server.control.new_session(parent))
    except ChangeRefusedError:  # an extension's session_before_switch said no (Pi: cancelled)
        return {"cancelled": True}
    return {"cancelled": False}


async def switch_session(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    path = fields.text("sessionPath", non_empty=True)
    _idle(server, "switch sessions")
    try:
        # Pi: a path with no file yet is a new session
        await server.control.asking(lambda: server.control.switch_session(path, create=True))
    except ChangeRefusedError:
        return {"cancelled": True}
    return {"cancelled": False}


async def fork(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    entry_id = fields.text("entryId", non_empty=True)
    _idle(server, "fork")
    try:
        return {
            "text": await server.control.asking(lambda: server.control.fork(entry_id)),
            "cancelled": False,
        }
    except ChangeRefusedError:
        return {"text": "", "cancelled": True}


async def clone(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    _idle(server, "clone")
    try:
        await server.control.asking(server.control.clone)
    except ChangeRefusedError:
        return {"cancelled": True}
    return {"cancelled": False}


async def get_fork_messages(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return {"messages": [{"entryId": m.entry_id, "text": m.text} for m in server.control.fork_messages()]}


async def get_last_assistant_text(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return {"text": server.control.last_assistant_text()}


async def set_session_name(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    name = fields.text("name", non_empty=True)
    server.control.session.set_name(name)
    server.out.send({"type": "session_info_changed", "name": name})  # Pi 0.73's event, then the answer
    return NO_DATA


async def get_session_stats(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return server.control.stats()


async def export_html(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return {"path": str(server.control.export_html(fields.optional_text("outputPath")))}


async def get_commands(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return {"commands": resource_commands(server.control.session.resources)}


async def list_sessions(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    """This project's sessions, or with ``"all": true`` every project's; most recent first."""
    everywhere = fields.optional_flag("all")
    return {
        "sessions": [session_info_to_dict(i) for i in server.control.list_sessions(everywhere=everywhere)]
    }


async def get_tree(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    log = server.control.session.log
    labels = log.labels
    return {"leafId": log.leaf_id, "entries": [tree_entry_to_dict(e, labels) for e in log.entries]}


async def navigate_tree(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    """Tau's: move to ``entryId``; with ``"summarize": true`` the branch left behind is
    summarised first (``customInstructions``, ``label`` for the summary), by the model or by an
    extension's ``session_before_tree`` handler."""
    entry_id = fields.optional_entry_id("entryId")
    _idle(server, "navigate the tree")
    control = server.control
    if fields.optional_flag("summarize"):
        instructions, label = fields.optional_text("customInstructions"), fields.optional_text("label")
        await control.summarize_move(entry_id, custom_instructions=instructions, label=label)
    else:
        await control.asking(lambda: control.navigate(entry_id))
    return {"leafId": control.session.log.leaf_id}


async def set_label(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    server.control.set_label(fields.text("entryId", non_empty=True), fields.optional_text("label"))
    return NO_DATA


async def reload(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    _idle(server, "reload")
    server.control.reload()
    return NO_DATA


SESSION_HANDLERS: dict[str, Handler] = {
    "get_state": get_state,
    "get_messages": get_messages,
    "set_model": set_model,
    "cycle_model": cycle_model,
    "get_available_models": get_available_models,
    "set_thinking_level": set_thinking_level,
    "cycle_thinking_level": cycle_thinking_level,
    "set_steering_mode": set_steering_mode,
    "set_follow_up_mode": set_follow_up_mode,
    "new_session": new_session,
    "switch_session": switch_session,
    "fork": fork,
    "clone": clone,
    "get_fork_messages": get_fork_messages,
    "get_last_assistant_text": get_last_assistant_text,
    "set_session_name": set_session_name,
    "get_session_stats": get_session_stats,
    "export_html": export_html,
    "get_commands": get_commands,
    "list_sessions": list_sessions,
    "get_tree": get_tree,
    "navigate_tree": navigate_tree,
    "set_label": set_label,
    "reload": reload,
}

__all__ = ["SESSION_HANDLERS"]
