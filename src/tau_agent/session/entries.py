"""Session entries: the lines of a session file, as small structs (Pi's v3 format).

A session is a header and then a tree of entries: each entry has an ``id`` (8 hex chars
in files Tau and Pi write), the ``parent_id`` it hangs under (``None`` for a root) and an
ISO-8601 ``timestamp``. The kinds mirror Pi's: a ``message`` carries an AgentMessage;
``model_change``/``thinking_level_change`` record settings; ``compaction`` and
``branch_summary`` stand in for history a model no longer sees; ``custom`` holds app data
that never reaches a model; ``custom_message`` reaches the model as a user message;
``label`` bookmarks another entry; ``session_info`` names the session. An entry of a type
this version does not know is kept as ``UnknownEntry`` so the tree stays whole.

Every entry may carry ``extra``: fields a newer writer added that Tau does not read. They
are written back unchanged wherever an entry is copied (fork, migration rewrite).

Entries are msgspec Structs declared ``gc=False``: the cyclic collector never tracks them. A
long session holds one per line, and what they hold (strings, messages, which are untracked
too, plain JSON data) cannot lead back to an entry, so there is no cycle for the collector
to find; untracked, they cost it nothing, however many a session has (see bulk.py). Build
them with keywords; ``msgspec.structs.replace`` gives a changed copy.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, TypeAlias

import msgspec

from tau_agent.content import ImageContent, TextContent
from tau_agent.messages import AgentMessage

CURRENT_VERSION = 3

LEAF_MARKER = "tau.leaf"
"""``custom_type`` of the entry Tau writes when the active leaf moves without a new entry.

Pi takes the last line of a file as the leaf, so a tree navigation followed by quitting
is lost there. Tau records the navigation as a ``custom`` entry hung under the new leaf
(``data = {"leafId": ...}``): Pi skips custom entries when building context and, since the
marker is the last line and its parent is the chosen entry, even Pi resumes on the same
path. Tau treats the marker as transparent: the leaf becomes the marker's parent, and the
next entry hangs there, not under the marker.
"""


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def iso_now() -> str:
    """The current UTC time as Pi writes it: ``2024-12-03T14:00:00.000Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_to_ms(timestamp: str) -> int:
    """Milliseconds since the epoch for an ISO-8601 timestamp; 0 if it does not parse."""
    try:
        moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return 0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def new_entry_id(taken: Callable[[str], bool]) -> str:
    """Eight hex chars not yet ``taken`` (Pi's id shape); a full UUID in the unlikely worst case."""
    for _ in range(100):
        candidate = uuid.uuid4().hex[:8]
        if not taken(candidate):
            return candidate
    return str(uuid.uuid4())


@dataclass(slots=True, kw_only=True)
class SessionHeader:
    """Line 1 of a session file. ``version`` is the version the file was written in."""

    id: str
    timestamp: str
    cwd: str
    version: int = CURRENT_VERSION
    parent_session: str | None = None
    extra: dict[str, Any] | None = None

    @classmethod
    def new(cls, cwd: str, parent_session: str | None = None) -> SessionHeader:
        return cls(id=str(uuid.uuid4()), timestamp=iso_now(), cwd=cwd, parent_session=parent_session)


class _EntryBase(msgspec.Struct, kw_only=True, gc=False):
    id: str
    parent_id: str | None
    timestamp: str = msgspec.field(default_factory=iso_now)
    extra: dict[str, Any] | None = None


class MessageEntry(_EntryBase, kw_only=True):
    """A finished message on the record."""

    type: ClassVar[str] = "message"
    message: AgentMessage


class ModelChangeEntry(_EntryBase, kw_only=True):
    type: ClassVar[str] = "model_change"
    provider: str
    model_id: str


class ThinkingLevelChangeEntry(_EntryBase, kw_only=True):
    type: ClassVar[str] = "thinking_level_change"
    thinking_level: str


class CompactionEntry(_EntryBase, kw_only=True):
    """History before ``first_kept_entry_id`` (on the path) is replaced by ``summary`` in context."""

    type: ClassVar[str] = "compaction"
    summary: str
    first_kept_entry_id: str
    tokens_before: int
    details: Any = None
    from_hook: bool | None = None


class BranchSummaryEntry(_EntryBase, kw_only=True):
    """What happened on an abandoned branch (``from_id`` is where it left, or ``"root"``)."""

    type: ClassVar[str] = "branch_summary"
    from_id: str
    summary: str
    details: Any = None
    from_hook: bool | None = None


class CustomEntry(_EntryBase, kw_only=True):
    """App or extension state; never part of a model's context."""

    type: ClassVar[str] = "custom"
    custom_type: str
    data: Any = None

    @property
    def is_leaf_marker(self) -> bool:
        return self.custom_type == LEAF_MARKER


class CustomMessageEntry(_EntryBase, kw_only=True):
    """An extension's message; reaches the model as a user message. ``display=False`` hides it."""

    type: ClassVar[str] = "custom_message"
    custom_type: str
    content: str | list[TextContent | ImageContent]
    display: bool = True
    details: Any = None


class LabelEntry(_EntryBase, kw_only=True):
    """Sets (or, with ``label=None``, clears) the bookmark on ``target_id``."""

    type: ClassVar[str] = "label"
    target_id: str
    label: str | None = None


class SessionInfoEntry(_EntryBase, kw_only=True):
    """Session metadata; the latest ``name`` is the session's display name."""

    type: ClassVar[str] = "session_info"
    name: str | None = None


class UnknownEntry(_EntryBase, kw_only=True):
    """An entry of a type this version does not know; kept verbatim (``raw``), never in context."""

    type: ClassVar[str] = "unknown"
    raw: dict[str, Any]

    @property
    def raw_type(self) -> str:
        return str(self.raw.get("type"))


SessionEntry: TypeAlias = (
    MessageEntry
    | ModelChangeEntry
    | ThinkingLevelChangeEntry
    | CompactionEntry
    | BranchSummaryEntry
    | CustomEntry
    | CustomMessageEntry
    | LabelEntry
    | SessionInfoEntry
    | UnknownEntry
)


def is_leaf_marker(entry: SessionEntry) -> bool:
    return isinstance(entry, CustomEntry) and entry.custom_type == LEAF_MARKER


__all__ = [
    "CURRENT_VERSION",
    "LEAF_MARKER",
    "BranchSummaryEntry",
    "CompactionEntry",
    "CustomEntry",
    "CustomMessageEntry",
    "LabelEntry",
    "MessageEntry",
    "ModelChangeEntry",
    "SessionEntry",
    "SessionHeader",
    "SessionInfoEntry",
    "ThinkingLevelChangeEntry",
    "UnknownEntry",
    "is_leaf_marker",
    "iso_now",
    "iso_to_ms",
    "new_entry_id",
]
