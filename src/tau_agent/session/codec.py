"""Session entries as Pi-compatible JSON values (v3, camelCase), and back.

``entry_to_dict``/``entry_from_dict`` are pure. Decoding never fails on a *type* it does not
know (that becomes an ``UnknownEntry``) but raises ``CodecError`` with a one-line reason
for a known type whose fields are not what the format says, or a line with no id. Unknown
fields of known types land in ``extra`` and are written back verbatim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_agent.content import ImageContent, TextContent
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionHeader,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
    UnknownEntry,
)
from tau_agent.wire import WireError, block_from_dict, block_to_dict, message_from_dict, message_to_dict

Json = dict[str, Any]


class CodecError(ValueError):
    """A JSON value is not a session line this codec can read."""


_BASE = ("type", "id", "parentId", "timestamp")
_KNOWN: dict[str, frozenset[str]] = {
    "message": frozenset((*_BASE, "message")),
    "model_change": frozenset((*_BASE, "provider", "modelId")),
    "thinking_level_change": frozenset((*_BASE, "thinkingLevel")),
    "compaction": frozenset((*_BASE, "summary", "firstKeptEntryId", "tokensBefore", "details", "fromHook")),
    "branch_summary": frozenset((*_BASE, "fromId", "summary", "details", "fromHook")),
    "custom": frozenset((*_BASE, "customType", "data")),
    "custom_message": frozenset((*_BASE, "customType", "content", "display", "details")),
    "label": frozenset((*_BASE, "targetId", "label")),
    "session_info": frozenset((*_BASE, "name")),
}
_HEADER_KNOWN = frozenset(("type", "version", "id", "timestamp", "cwd", "parentSession"))


# -- header --------------------------------------------------------------------------------------


def header_to_dict(header: SessionHeader) -> Json:
    out: Json = {
        "type": "session",
        "version": header.version,
        "id": header.id,
        "timestamp": header.timestamp,
        "cwd": header.cwd,
    }
    if header.parent_session is not None:
        out["parentSession"] = header.parent_session
    if header.extra:
        out.update(header.extra)
    return out


def header_from_dict(data: Any) -> SessionHeader:
    if not isinstance(data, Mapping) or data.get("type") != "session":
        raise CodecError("the first line is not a session header")
    sid = data.get("id")
    if not isinstance(sid, str) or not sid:
        raise CodecError("the session header has no id")
    version = data.get("version", 1)
    parent = data.get("parentSession")
    extra = {k: v for k, v in data.items() if k not in _HEADER_KNOWN}
    return SessionHeader(
        id=sid,
        timestamp=str(data.get("timestamp") or ""),
        cwd=str(data.get("cwd") or ""),
        version=version if isinstance(version, int) else 1,
        parent_session=parent if isinstance(parent, str) else None,
        extra=extra or None,
    )


# -- entries -------------------------------------------------------------------------------------


def _content_to_json(content: str | list[TextContent | ImageContent]) -> Any:
    return content if isinstance(content, str) else [block_to_dict(b) for b in content]


def entry_to_dict(entry: SessionEntry) -> Json:
    """The JSON object of one entry, keys in Pi's order (type, id, parentId, timestamp, ...)."""
    if isinstance(entry, UnknownEntry):
        return dict(entry.raw)
    out: Json = {
        "type": entry.type,
        "id": entry.id,
        "parentId": entry.parent_id,
        "timestamp": entry.timestamp,
    }
    if isinstance(entry, MessageEntry):
        out["message"] = message_to_dict(entry.message)
    elif isinstance(entry, ModelChangeEntry):
        out["provider"] = entry.provider
        out["modelId"] = entry.model_id
    elif isinstance(entry, ThinkingLevelChangeEntry):
        out["thinkingLevel"] = entry.thinking_level
    elif isinstance(entry, CompactionEntry):
        out["summary"] = entry.summary
        out["firstKeptEntryId"] = entry.first_kept_entry_id
        out["tokensBefore"] = entry.tokens_before
        _optional(out, "details", entry.details)
        _optional(out, "fromHook", entry.from_hook)
    elif isinstance(entry, BranchSummaryEntry):
        out["fromId"] = entry.from_id
        out["summary"] = entry.summary
        _optional(out, "details", entry.details)
        _optional(out, "fromHook", entry.from_hook)
    elif isinstance(entry, CustomEntry):
        out["customType"] = entry.custom_type
        _optional(out, "data", entry.data)
    elif isinstance(entry, CustomMessageEntry):
        out["customType"] = entry.custom_type
        out["content"] = _content_to_json(entry.content)
        out["display"] = entry.display
        _optional(out, "details", entry.details)
    elif isinstance(entry, LabelEntry):
        out["targetId"] = entry.target_id
        _optional(out, "label", entry.label)
    else:
        _optional(out, "name", entry.name)
    if entry.extra:
        out.update(entry.extra)
    return out


def _optional(out: Json, key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def _text(data: Mapping[str, Any], key: str, kind: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise CodecError(f"{kind} entry: field {key!r} must be a string")
    return value


def _opt_text(data: Mapping[str, Any], key: str, kind: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise CodecError(f"{kind} entry: field {key!r} must be a string")
    return value


def entry_from_dict(data: Any) -> SessionEntry:
    """Read one entry; raises CodecError (one line) for a shape it cannot make sense of."""
    if not isinstance(data, dict):
        raise CodecError(f"entry must be an object, got {type(data).__name__}")
    kind = data.get("type")
    eid = data.get("id")
    parent = data.get("parentId")
    if not isinstance(eid, str) or not eid:
        raise CodecError(f"{kind} entry has no id")
    if parent is not None and not isinstance(parent, str):
        raise CodecError(f"{kind} entry {eid}: parentId must be a string or null")
    ts = data.get("timestamp")
    timestamp = ts if isinstance(ts, str) else ""
    known = _KNOWN.get(kind) if isinstance(kind, str) else None
    if known is None or not isinstance(kind, str):
        return UnknownEntry(id=eid, parent_id=parent, timestamp=timestamp, raw=data)
    extra = {k: v for k, v in data.items() if k not in known} if len(data) > len(known) else None
    if extra is not None and not extra:
        extra = None
    base: Json = {"id": eid, "parent_id": parent, "timestamp": timestamp, "extra": extra}
    try:
        return _decode_kind(kind, data, base)
    except WireError as exc:
        raise CodecError(f"{kind} entry {eid}: {exc}") from None


def _decode_kind(kind: str, data: Json, base: Json) -> SessionEntry:
    if kind == "message":
        return MessageEntry(**base, message=message_from_dict(data.get("message")))
    if kind == "model_change":
        return ModelChangeEntry(
            **base, provider=_text(data, "provider", kind), model_id=_text(data, "modelId", kind)
        )
    if kind == "thinking_level_change":
        return ThinkingLevelChangeEntry(**base, thinking_level=_text(data, "thinkingLevel", kind))
    if kind == "compaction":
        tokens = data.get("tokensBefore", 0)
        return CompactionEntry(
            **base,
            summary=_text(data, "summary", kind),
            first_kept_entry_id=_opt_text(data, "firstKeptEntryId", kind) or "",
            tokens_before=tokens if isinstance(tokens, int) else 0,
            details=data.get("details"),
            from_hook=data.get("fromHook"),
        )
    if kind == "branch_summary":
        return BranchSummaryEntry(
            **base,
            from_id=_opt_text(data, "fromId", kind) or "root",
            summary=_text(data, "summary", kind),
            details=data.get("details"),
            from_hook=data.get("fromHook"),
        )
    if kind == "custom":
        return CustomEntry(**base, custom_type=_text(data, "customType", kind), data=data.get("data"))
    if kind == "custom_message":
        content = data.get("content", "")
        blocks: str | list[TextContent | ImageContent]
        if isinstance(content, str):
            blocks = content
        elif isinstance(content, list):
            blocks = []
            for item in content:
                block = block_from_dict(item)
                if not isinstance(block, TextContent | ImageContent):
                    raise CodecError(f"custom_message entry: content may not hold a {block.type} block")
                blocks.append(block)
        else:
            raise CodecError("custom_message entry: content must be a string or a list")
        return CustomMessageEntry(
            **base,
            custom_type=_text(data, "customType", kind),
            content=blocks,
            display=bool(data.get("display", True)),
            details=data.get("details"),
        )
    if kind == "label":
        return LabelEntry(
            **base, target_id=_text(data, "targetId", kind), label=_opt_text(data, "label", kind)
        )
    return SessionInfoEntry(**base, name=_opt_text(data, "name", kind))


__all__ = [
    "CodecError",
    "entry_from_dict",
    "entry_to_dict",
    "header_from_dict",
    "header_to_dict",
]
