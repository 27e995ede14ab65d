"""Pi's JSON shapes for the values RPC responses carry: models, session listings, tree entries;
and Tau's ``session_changed`` event."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tau_agent.content import text_of
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import MessageEntry, SessionEntry
from tau_ai.model import Model
from tau_coding.resources.loader import Resources
from tau_coding.session.store.listing import SessionInfo

if TYPE_CHECKING:
    from tau_coding.session.change_questions import OutsideChange
    from tau_coding.session.coding_session import CodingSession

PREVIEW_CHARS = 200


def model_to_dict(model: Model) -> dict[str, Any]:
    """Pi's model shape, without the request headers (they may hold secrets)."""
    out: dict[str, Any] = {
        "id": model.id,
        "name": model.name or model.id,
        "api": model.api,
        "provider": model.provider,
        "baseUrl": model.base_url,
        "reasoning": model.reasoning,
        "input": list(model.input),
        "contextWindow": model.context_window,
        "maxTokens": model.max_tokens,
        "cost": {
            "input": model.cost.input,
            "output": model.cost.output,
            "cacheRead": model.cost.cache_read,
            "cacheWrite": model.cost.cache_write,
        },
    }
    # ``headers`` are left out, as Pi leaves them out: models.json puts API keys and tokens there.
    if model.compat:
        out["compat"] = dict(model.compat)
    return out


def session_info_to_dict(info: SessionInfo) -> dict[str, Any]:
    out: dict[str, Any] = {
        "path": str(info.path),
        "id": info.id,
        "cwd": info.cwd,
        "created": info.created.isoformat(),
        "modified": info.modified.isoformat(),
        "messageCount": info.message_count,
        "firstMessage": info.first_message,
    }
    if info.name:
        out["name"] = info.name
    if info.parent_session:
        out["parentSession"] = info.parent_session
    return out


def resource_commands(resources: Resources | None) -> list[dict[str, Any]]:
    """Prompt templates and skills a prompt may invoke with ``/name`` (``get_commands``)."""
    if resources is None:
        return []
    out: list[dict[str, Any]] = []
    for template in resources.prompt_templates:
        out.append(
            {
                "name": template.name,
                "description": template.description,
                "source": "prompt",
                "location": template.source,
                "path": str(template.path),
                "sourceInfo": _source_info(template.path, template.source),
            }
        )
    for skill in resources.skills:
        out.append(
            {
                "name": f"skill:{skill.name}",
                "description": skill.description,
                "source": "skill",
                "location": skill.source,
                "path": str(skill.file_path),
                "sourceInfo": _source_info(skill.file_path, skill.source),
            }
        )
    return out


def _source_info(path: Path, location: str) -> dict[str, str]:
    """Pi 0.73's ``sourceInfo``: where a command comes from. ``source`` is ``auto`` for what was
    discovered, ``local`` for a path named by a flag or setting; Tau has no packages yet, so
    ``origin`` is always ``top-level``. What Tau ships (``/init``) has ``source`` ``builtin``
    and the ``user`` scope, the nearest of Pi's three."""
    scope = {"path": "temporary", "builtin": "user"}.get(location, location)
    return {
        "path": str(path),
        "source": {"path": "local", "builtin": "builtin"}.get(location, "auto"),
        "scope": scope,
        "origin": "top-level",
    }


def tree_entry_to_dict(entry: SessionEntry, labels: dict[str, str]) -> dict[str, Any]:
    """One node of ``get_tree``: ids, kind, and for messages the role and a text preview."""
    out: dict[str, Any] = {
        "id": entry.id,
        "parentId": entry.parent_id,
        "type": entry.type,
        "timestamp": entry.timestamp,
    }
    if isinstance(entry, MessageEntry):
        message = entry.message
        out["role"] = message.role
        text = (
            text_of(message.content)
            if isinstance(message, UserMessage)
            else message.text
            if isinstance(message, AssistantMessage)
            else ""
        )
        if text:
            out["preview"] = text[:PREVIEW_CHARS]
    if entry.id in labels:
        out["label"] = labels[entry.id]
    return out


__all__ = ["model_to_dict", "resource_commands", "session_info_to_dict", "tree_entry_to_dict"]


def session_changed_event(session: CodingSession, change: OutsideChange) -> dict[str, Any]:
    """Tau's ``session_changed`` event: an extension moved the session (``tau.sessions``);
    ``reason`` says how, and the rest is what ``get_state`` would now say of where it is."""
    event: dict[str, Any] = {
        "type": "session_changed",
        "reason": change.kind,
        "sessionId": session.session_id,
        "leafId": session.log.leaf_id,
        "messageCount": len(session.messages),
    }
    file = session.session_file
    if file is not None:
        event["sessionFile"] = str(file)
    if change.editor_text is not None:
        event["editorText"] = change.editor_text
    return event
