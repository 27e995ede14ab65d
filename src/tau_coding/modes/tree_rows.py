"""The /tree screen's rows, computed from a SessionLog (pure: no I/O, no UI).

Rows come in depth-first order with the children of an entry in file order, the child on the
active branch first. Depth grows only where an entry has more than one child, so a long
linear conversation stays flush left and each branch is indented once. Bookkeeping entries
(labels, names, model and thinking changes) are not shown; their children are.
"""

from __future__ import annotations

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, BashExecutionMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    MessageEntry,
    SessionEntry,
)
from tau_agent.session.log import SessionLog
from tau_coding.tui.port import TreeRow, TreeRows

TEXT_LIMIT = 100
_SHOWN_MESSAGES = (UserMessage, AssistantMessage, ToolResultMessage, BashExecutionMessage)
_SHOWN_ENTRIES = (CompactionEntry, BranchSummaryEntry, CustomMessageEntry)


def describe(entry: SessionEntry) -> str | None:
    """One line for ``entry``, or None when the tree does not show it."""
    if isinstance(entry, MessageEntry):
        message = entry.message
        if isinstance(message, UserMessage):
            return "user: " + _first_line(_content_text(message.content))
        if isinstance(message, AssistantMessage):
            if message.text.strip():
                return "assistant: " + _first_line(message.text)
            calls = [b.name for b in message.content if isinstance(b, ToolCall)]
            return "assistant: [" + ", ".join(calls) + "]" if calls else "assistant: (empty)"
        if isinstance(message, ToolResultMessage):
            return f"{message.tool_name} result" + (" (error)" if message.is_error else "")
        if isinstance(message, BashExecutionMessage):
            return "!" + _first_line(message.command)
        return None
    if isinstance(entry, CompactionEntry):
        return f"[compaction: {entry.tokens_before} tokens summarised]"
    if isinstance(entry, BranchSummaryEntry):
        return "[branch summary] " + _first_line(entry.summary)
    if isinstance(entry, CustomMessageEntry):
        return f"[{entry.custom_type}] " + _first_line(_content_text(entry.content))
    return None


def is_shown(entry: SessionEntry) -> bool:
    """Whether the tree has a row for ``entry`` (exactly when ``describe`` gives a line)."""
    if isinstance(entry, MessageEntry):
        return isinstance(entry.message, _SHOWN_MESSAGES)
    return isinstance(entry, _SHOWN_ENTRIES)


def tree_rows(log: SessionLog) -> TreeRows:
    """The rows as the log stands now. The order, depths, active branch, leaf and labels are
    fixed here in one pass over the entries; a row's text is made when the row is read."""
    tree, leaf = log.tree, log.leaf_id
    active = {entry.id for entry in log.path()}
    children = tree.children
    shown: list[SessionEntry] = []
    depths: list[int] = []
    leaf_index: int | None = None
    stack: list[tuple[SessionEntry, int]] = [(root, 0) for root in reversed(tree.roots())]
    while stack:
        entry, depth = stack.pop()
        while True:  # down a run of only children without touching the stack
            if is_shown(entry):
                if entry.id == leaf:
                    leaf_index = len(shown)
                shown.append(entry)
                depths.append(depth)
            kids = children(entry.id)
            if len(kids) != 1:
                break
            entry = kids[0]
        if kids:
            # The active branch first, so the user's own conversation reads top-down without a jump.
            kids.sort(key=lambda child: child.id not in active)
            stack.extend((child, depth + 1) for child in reversed(kids))
    if leaf is not None and leaf_index is None:  # the leaf is a hidden entry: mark the row above it
        leaf_index = next((i for i in range(len(shown) - 1, -1, -1) if shown[i].id in active), None)
    labels = log.labels

    def row(index: int) -> TreeRow:
        entry = shown[index]
        return TreeRow(
            entry.id,
            depths[index],
            describe(entry) or "",
            labels.get(entry.id),
            on_path=entry.id in active,
            is_leaf=index == leaf_index,
        )

    return TreeRows(len(shown), row, leaf_index)


def _content_text(content: str | list[object] | object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.text for b in content if isinstance(b, TextContent)) or "(image)"
    return ""


def _first_line(text: str) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= TEXT_LIMIT else line[: TEXT_LIMIT - 1] + "…"
