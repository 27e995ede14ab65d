"""What the transcript shows, item by item, and the small records around it. Pure data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from tau_agent.content import ImageContent
from tau_agent.messages import AssistantMessage

ToolStatus: TypeAlias = Literal["pending", "running", "ok", "error"]
RunStatus: TypeAlias = Literal["idle", "running", "cancelling"]
QueueKind: TypeAlias = Literal["steer", "follow_up"]
NoticeTone: TypeAlias = Literal["info", "warning", "compaction", "branch", "command"]


@dataclass(frozen=True, slots=True)
class RunNotice:
    """A line a port adds to a run's events (a retry, say): shown as a notice, not an agent event."""

    text: str
    tone: NoticeTone = "info"
    retry_in: float | None = None  # a retry starts in this many seconds (the footer counts down)
    retry_over: bool = False  # the retry under way ended (an empty ``text`` adds no line)
    recovers: bool = False  # the failure shown last is being dealt with: its hint goes
    # With ``recovers``: what is done about that failure, shown under it instead of ``text``
    # (which repeats the failure, for when none is on screen): "retrying in 2.0s (1/3)".
    under_failure: str = ""
    compacting: bool | None = None  # a compaction started (True) or ended (False); None: neither


RETRY_HINT = "Send a message to retry, or switch model with /model."


def compacted_line(tokens_before: int) -> str:
    """The line a compaction leaves in the transcript, live or read back from the history."""
    return f"Context compacted ({tokens_before:,} tokens before)"


@dataclass(slots=True)
class UserItem:
    """What the user sent; ``text`` has a placeholder line for each of ``images``."""

    text: str
    images: tuple[ImageContent, ...] = ()


@dataclass(slots=True)
class AssistantItem:
    """A reply; ``message`` is the live partial while streaming (shared, never copied)."""

    message: AssistantMessage
    done: bool = False


@dataclass(slots=True)
class ToolItem:
    """One tool call, from the model's request to its result."""

    call_id: str
    name: str
    args: dict[str, Any]
    status: ToolStatus = "pending"
    started: float | None = None
    ended: float | None = None
    output: str = ""  # the latest partial output while running, the result's text after
    details: Any = None
    images: tuple[ImageContent, ...] = ()  # the result's images (placeholder lines in ``output``)


@dataclass(slots=True)
class BashItem:
    """A command the user ran with ``!cmd``/``!!cmd``."""

    command: str
    output: str
    exit_code: int | None
    excluded: bool = False
    cancelled: bool = False


@dataclass(slots=True)
class NoticeItem:
    text: str
    tone: NoticeTone = "info"


@dataclass(slots=True)
class ErrorItem:
    """What went wrong, and what the user can do about it."""

    message: str
    hint: str = RETRY_HINT


Item: TypeAlias = UserItem | AssistantItem | ToolItem | BashItem | NoticeItem | ErrorItem


@dataclass(slots=True)
class QueuedMessage:
    kind: QueueKind
    text: str


@dataclass(slots=True)
class Changes:
    """What changed since the last ``take_changes``: items to mount, items to refresh, panels."""

    appended: range
    updated: set[int]
    queue: bool
    footer: bool
