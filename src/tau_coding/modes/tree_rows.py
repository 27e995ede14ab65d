"""The /tree screen's rows, computed from a SessionLog (pure: no I/O, no UI).

Rows come in depth-first order with the children of an entry in file order. Depth grows only
where an entry has more than one child, so a long linear conversation stays flush left and
each branch is indented once. Bookkeeping entries (labels, names, model and thinking changes)
are not shown; their children are.
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
from tau_coding.tui.port import TreeRow

TEXT_LIMIT = 100


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


def tree_rows(log: SessionLog) -> list[TreeRow]:
    tree, labels, leaf = log.tree, log.labels, log.leaf_id
    active = {entry.id for entry in log.path()}
    rows: list[TreeRow] = []
    stack: list[tuple[SessionEntry, int]] = [(root, 0) for root in reversed(tree.roots())]
    while stack:
        entry, depth = stack.pop()
        text = describe(entry)
        if text is not None:
            rows.append(
                TreeRow(
                    entry.id,
                    depth,
                    text,
                    labels.get(entry.id),
                    on_path=entry.id in active,
                    is_leaf=entry.id == leaf,
                )
            )
        children = tree.children(entry.id)
        child_depth = depth + 1 if len(children) > 1 else depth
        # The active branch first, so the user's own conversation reads top-down without a jump.
        children.sort(key=lambda child: child.id not in active)
        stack.extend((child, child_depth) for child in reversed(children))
    if leaf is not None and not any(row.is_leaf for row in rows):  # leaf is a hidden entry
        for index in range(len(rows) - 1, -1, -1):
            if rows[index].on_path:
                row = rows[index]
                rows[index] = TreeRow(row.entry_id, row.depth, row.text, row.label, True, True)
                break
    return rows


def _content_text(content: str | list[object] | object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.text for b in content if isinstance(b, TextContent)) or "(image)"
    return ""


def _first_line(text: str) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= TEXT_LIMIT else line[: TEXT_LIMIT - 1] + "…"
