"""The task list as data: items, their validation, and the list in force on a session path.

The list is never stored apart from the conversation: every ``todo`` call carries the whole
list, and its tool result's ``details`` (``{"items": [{"text", "status"}, ...]}``) is the
state. The list in force at any point of the tree is the last successful ``todo`` result on
the path to it (or a ``tau.todo`` custom entry, for lists set by the app), so resuming a session or moving in the tree restores it with no bookkeeping.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter, is_
from typing import Any, Literal, TypeAlias, get_args

from tau_agent.messages import ToolResultMessage
from tau_agent.session.entries import CustomEntry, MessageEntry, SessionEntry

TOOL_NAME = "todo"
# A list set from outside a tool call (an approved plan, an extension): a custom entry whose
# data has the same shape as a todo result's details.
ENTRY_TYPE = "tau.todo"
Status: TypeAlias = Literal["pending", "in_progress", "done"]
STATUSES: tuple[str, ...] = get_args(Status)
MAX_ITEMS = 100
MAX_TEXT = 500


@dataclass(frozen=True, slots=True)
class TodoItem:
    """One entry of the task list: its text and its status."""

    text: str
    status: Status = "pending"

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "status": self.status}


class TodoError(ValueError):
    """The ``items`` argument is not a valid list; the message says what to change."""


# Claude Code's TodoWrite names (``todos``, ``content``, ``completed``): models trained on it
# write them here too, and a list they send that way is the same list.
_STATUS_ALIASES = {"completed": "done", "in-progress": "in_progress"}


def from_claude_code(args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` in this tool's names: ``todos`` becomes ``items``, an item's ``content`` its
    ``text``, status ``completed`` ``done`` (anything else is left for ``parse_items`` to judge)."""
    raw = args["todos"] if "items" not in args and "todos" in args else args.get("items")
    if not isinstance(raw, list):
        return dict(args)
    items = []
    for item in raw:
        if isinstance(item, Mapping):
            item = dict(item)
            if "text" not in item and "content" in item:
                item["text"] = item.pop("content")
            status = item.get("status")
            if isinstance(status, str) and status in _STATUS_ALIASES:
                item["status"] = _STATUS_ALIASES[status]
        items.append(item)
    return {**{k: v for k, v in args.items() if k != "todos"}, "items": items}


def parse_items(value: Any) -> list[TodoItem]:
    """``items`` as the model sent it, checked: a list of ``{text, status}`` objects."""
    if not isinstance(value, list):
        raise TodoError("items must be a list of {text, status} objects")
    if len(value) > MAX_ITEMS:
        raise TodoError(f"at most {MAX_ITEMS} items; split the work or drop finished ones")
    out: list[TodoItem] = []
    for index, raw in enumerate(value, 1):
        if not isinstance(raw, Mapping):
            raise TodoError(f"item {index} must be an object with text and status")
        text = raw.get("text")
        status = raw.get("status", "pending")
        if not isinstance(text, str) or not text.strip():
            raise TodoError(f"item {index} needs a non-empty text")
        if status not in STATUSES:
            raise TodoError(f"item {index}: status must be one of {', '.join(STATUSES)}, not {status!r}")
        out.append(TodoItem(text.strip()[:MAX_TEXT], status))
    return out


def items_from_details(details: Any) -> list[TodoItem] | None:
    """The list a ``todo`` result's ``details`` holds; None when it holds none (a bad record is none)."""
    if not isinstance(details, Mapping):
        return None
    try:
        return parse_items(details.get("items"))
    except TodoError:
        return None


def todos_on_path(entries: Iterable[SessionEntry]) -> list[TodoItem]:
    """The list in force at the end of ``entries`` (a path, root first): the last one recorded.
    Looked for from the end; a path with no ``todo`` result and no custom entry (most of a
    long session's are such) is told apart at C speed first, without a step per entry."""
    path = list(entries)
    if not _may_record_lists(path):
        return []
    for entry in reversed(path):
        items = None
        if isinstance(entry, MessageEntry):
            message = entry.message
            if isinstance(message, ToolResultMessage) and message.tool_name == TOOL_NAME:
                items = None if message.is_error else items_from_details(message.details)
        elif isinstance(entry, CustomEntry) and entry.custom_type == ENTRY_TYPE:
            items = items_from_details(entry.data)
        if items is not None:
            return items
    return []


def _may_record_lists(path: list[SessionEntry]) -> bool:
    kinds = list(map(type, path))
    if CustomEntry in kinds:
        return True
    messages = list(map(_MESSAGE, compress(path, map(is_, kinds, repeat(MessageEntry)))))
    results = compress(messages, map(is_, map(type, messages), repeat(ToolResultMessage)))
    return TOOL_NAME in map(_TOOL_NAME, results)


_MESSAGE = attrgetter("message")
_TOOL_NAME = attrgetter("tool_name")


_MARKS: dict[str, str] = {"pending": "[ ]", "in_progress": "[~]", "done": "[x]"}


def render_lines(items: Sequence[TodoItem]) -> list[str]:
    """The panel's lines: one per item, with a mark for its status."""
    return [f"{_MARKS[item.status]} {item.text}" for item in items]


def count_text(items: Sequence[TodoItem]) -> str | None:
    """The footer's count, e.g. ``todo 2/5``; None for an empty list."""
    if not items:
        return None
    done = sum(1 for item in items if item.status == "done")
    return f"todo {done}/{len(items)}"
