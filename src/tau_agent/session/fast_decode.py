"""The fast path of reading v3 session lines: msgspec decodes them straight into Tau's types.

Parsing a line to dicts and then reading the dicts (codec.py, wire.py: the careful path)
costs about three times what msgspec takes to decode the same bytes into typed structs.
Messages and content blocks are such structs already (messages.py, content.py); entries
get small mirrors here. They accept only what the careful path reads *the same way*:
every field typed exactly as the careful path would keep it, no unknown field, no unknown
``type`` or ``role``. Whatever they refuse (a corrupt line, a field a newer writer added,
a number written as a string, a message without a timestamp) raises, and the caller reads
that line the careful way, which warns, coerces and keeps extras. Tests hold both paths to
equal results on every line the fast path accepts.
"""

from __future__ import annotations

from itertools import pairwise
from operator import attrgetter
from typing import Annotated, Any

import msgspec

from tau_agent.content import ImageContent, TextContent
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, now_ms
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
)

_ID = attrgetter("id")
DecodeError = msgspec.DecodeError
"""What ``decode_lines``/``decode_line`` raise for anything the fast path refuses (a ValueError)."""


# gc=False: mirrors live only while a batch is turned into entries and hold no cycles.
# kw_only (not inherited, so repeated below): required fields after the base's optional ones.
class _Entry(msgspec.Struct, forbid_unknown_fields=True, rename="camel", gc=False, tag_field="type"):
    id: Annotated[str, msgspec.Meta(min_length=1)]
    parent_id: str | None = None
    timestamp: str = ""


class _MessageEntry(_Entry, tag="message", kw_only=True):
    message: AgentMessage


class _ModelChange(_Entry, tag="model_change", kw_only=True):
    provider: str
    model_id: str


class _ThinkingLevelChange(_Entry, tag="thinking_level_change", kw_only=True):
    thinking_level: str


class _Compaction(_Entry, tag="compaction", kw_only=True):
    summary: str
    first_kept_entry_id: str | None = None
    tokens_before: int = 0
    details: Any = None
    from_hook: bool | None = None


class _BranchSummaryEntry(_Entry, tag="branch_summary", kw_only=True):
    summary: str
    from_id: str | None = None
    details: Any = None
    from_hook: bool | None = None


class _CustomEntry(_Entry, tag="custom", kw_only=True):
    custom_type: str
    data: Any = None


class _CustomMessageEntry(_Entry, tag="custom_message", kw_only=True):
    custom_type: str
    content: str | list[TextContent | ImageContent] = ""
    display: bool = True
    details: Any = None


class _Label(_Entry, tag="label", kw_only=True):
    target_id: str
    label: str | None = None


class _SessionInfo(_Entry, tag="session_info"):
    name: str | None = None


_AnyEntry = (
    _MessageEntry
    | _ModelChange
    | _ThinkingLevelChange
    | _Compaction
    | _BranchSummaryEntry
    | _CustomEntry
    | _CustomMessageEntry
    | _Label
    | _SessionInfo
)

_DECODER = msgspec.json.Decoder(_AnyEntry)


def _to_entry(e: Any) -> SessionEntry:
    """Entries other than messages, which are rare: built at once."""
    base: dict[str, Any] = {"id": e.id, "parent_id": e.parent_id, "timestamp": e.timestamp}
    kind = type(e)
    if kind is _ModelChange:
        return ModelChangeEntry(**base, provider=e.provider, model_id=e.model_id)
    if kind is _ThinkingLevelChange:
        return ThinkingLevelChangeEntry(**base, thinking_level=e.thinking_level)
    if kind is _Compaction:
        return CompactionEntry(
            **base,
            summary=e.summary,
            first_kept_entry_id=e.first_kept_entry_id or "",
            tokens_before=e.tokens_before,
            details=e.details,
            from_hook=e.from_hook,
        )
    if kind is _BranchSummaryEntry:
        return BranchSummaryEntry(
            **base, from_id=e.from_id or "root", summary=e.summary, details=e.details, from_hook=e.from_hook
        )
    if kind is _CustomEntry:
        return CustomEntry(**base, custom_type=e.custom_type, data=e.data)
    if kind is _CustomMessageEntry:
        return CustomMessageEntry(
            **base,
            custom_type=e.custom_type,
            content=e.content,
            display=e.display,
            details=e.details,
        )
    if kind is _Label:
        return LabelEntry(**base, target_id=e.target_id, label=e.label)
    return SessionInfoEntry(**base, name=e.name)


class Indexing:
    """What a read learns of its entries as it makes them, batch by batch: each by its id (in
    file order) and whether they form one chain (``SessionTree.indexed``). Learnt while a batch's
    objects are still in the cache, it spares the reader and the tree a pass over them all."""

    __slots__ = ("by_id", "chain", "first_parent", "last", "read")

    def __init__(self) -> None:
        self.by_id: dict[str, SessionEntry] = {}
        self.read = 0  # entries met: more than ``by_id`` holds when an id came twice
        self.chain = True  # so far, every entry after the first hangs under the one before it
        self.first_parent: str | None = None
        self.last: str | None = None

    def one_chain(self) -> bool:
        """The entries make one chain, as ``SessionTree`` means it."""
        return self.chain and self.first_parent not in self.by_id


def _entries(
    mirrors: list[Any], out: list[SessionEntry], started: int, index: Indexing | None = None
) -> None:
    """Entries for ``mirrors``, decoded from ``started`` (ms) on; a parent id equal to the
    id before it is that string, not a copy, and so is a reply's api, provider and model, or a
    tool result's tool name, equal to an earlier one's (a long session keeps fewer strings). A message without a
    timestamp got now from its default while decoding, where the careful path reads 0; so
    a timestamp from ``started`` on sends the batch to the careful path. (A file from a
    clock running ahead only costs that batch some speed.)"""
    made: list[SessionEntry] = []
    append = made.append
    entry = MessageEntry
    # The previous entry's id: an entry's parent id is usually that same string.
    last = index.last if index is not None else None
    chain = True  # each entry of the batch hangs under the one before it
    names: dict[str, str] = {}
    for e in mirrors:
        if e.parent_id != last:
            chain = False
        if type(e) is _MessageEntry:
            message = e.message
            if message.timestamp >= started:
                raise DecodeError("a message without a timestamp, or from the future")
            if type(message) is AssistantMessage:  # the same few names, reply after reply: one string each
                message.api = names.setdefault(message.api, message.api)
                message.provider = names.setdefault(message.provider, message.provider)
                message.model = names.setdefault(message.model, message.model)
            elif type(message) is ToolResultMessage:
                message.tool_name = names.setdefault(message.tool_name, message.tool_name)
            parent = e.parent_id
            append(
                entry(
                    id=e.id,
                    parent_id=last if parent == last else parent,
                    timestamp=e.timestamp,
                    message=message,
                )
            )
        else:
            append(_to_entry(e))
        last = e.id
    if index is not None and made:
        if not index.read:  # the very first entry may hang under anything not read
            index.first_parent = made[0].parent_id
            chain = chain or all(e.parent_id == p.id for p, e in pairwise(made))
        index.by_id.update(zip(map(_ID, made), made, strict=True))
        index.read += len(made)
        index.chain = index.chain and chain
        index.last = last
    out.extend(made)


def decode_lines(lines: bytes | memoryview, out: list[SessionEntry], index: Indexing | None = None) -> None:
    """Append the entries of ``lines`` (whole ``\\n``-terminated lines; blank ones are skipped)
    to ``out``, and tell ``index`` of them. Raises DecodeError, appending and telling nothing,
    if any line is refused."""
    started = now_ms()
    _entries(_DECODER.decode_lines(lines), out, started, index)


def decode_line(line: bytes) -> SessionEntry:
    """One line's entry; raises DecodeError if the mirrors refuse it."""
    started = now_ms()
    out: list[SessionEntry] = []
    _entries([_DECODER.decode(line)], out, started)
    return out[0]


__all__ = ["DecodeError", "Indexing", "decode_line", "decode_lines"]
