"""The /tree screen's rows, computed from a SessionLog (pure: no I/O, no UI).

Rows come in depth-first order with the children of an entry in file order, the child on the
active branch first. Depth grows only where an entry has more than one child (shown or not),
so a long linear conversation stays flush left, each branch is indented once, and a filter
changes which rows there are but not how deep a row sits. A ``TreeFilter`` picks the entries
(see ``is_shown``); by default bookkeeping entries (labels, names, model and thinking changes,
extension state) are not shown, their children are. Tau's leaf markers are never shown.
"""

from __future__ import annotations

from collections.abc import Callable

from tau_agent.messages import (
    AssistantMessage,
    BashExecutionMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    MessageEntry,
    SessionEntry,
    is_leaf_marker,
)
from tau_agent.session.log import SessionLog
from tau_coding.session.store.entry_line import describe
from tau_coding.tui.tree_port import TreeFilter, TreeRow, TreeRows, search_text

_SHOWN_MESSAGES = (UserMessage, AssistantMessage, ToolResultMessage, BashExecutionMessage)
_SHOWN_ENTRIES = (CompactionEntry, BranchSummaryEntry, CustomMessageEntry)


def is_shown(entry: SessionEntry, filter: TreeFilter = "default", label: str | None = None) -> bool:
    """Whether the tree has a row for ``entry`` (labelled ``label``) under ``filter``:

    - ``default``: user, assistant, tool result and ``!`` messages, compactions, branch
      summaries and extension messages;
    - ``no-tools``: those but tool results and assistant messages that only call tools;
    - ``user``: the user's messages;
    - ``labelled``: any entry with a label;
    - ``all``: every entry but Tau's leaf markers.
    """
    if filter == "labelled":
        return label is not None and _is_any(entry)
    return _SHOWS[filter](entry)


def _is_default(entry: SessionEntry) -> bool:
    if isinstance(entry, MessageEntry):
        return isinstance(entry.message, _SHOWN_MESSAGES)
    return isinstance(entry, _SHOWN_ENTRIES)


def _is_conversation(entry: SessionEntry) -> bool:
    if not _is_default(entry):
        return False
    message = entry.message if isinstance(entry, MessageEntry) else None
    if isinstance(message, ToolResultMessage):
        return False
    return not (isinstance(message, AssistantMessage) and message.tool_calls and not message.text.strip())


def _is_user(entry: SessionEntry) -> bool:
    return isinstance(entry, MessageEntry) and isinstance(entry.message, UserMessage)


def _is_any(entry: SessionEntry) -> bool:
    return not is_leaf_marker(entry)


_SHOWS: dict[TreeFilter, Callable[[SessionEntry], bool]] = {
    "default": _is_default,
    "no-tools": _is_conversation,
    "user": _is_user,
    "all": _is_any,
}


def tree_rows(log: SessionLog, filter: TreeFilter = "default") -> TreeRows:
    """The rows ``filter`` keeps, as the log stands now. The order, depths, active branch,
    leaf and labels are fixed here in one pass over the entries; a row's text is made when the
    row is read (or searched). When the leaf is not shown, the shown entry nearest above it on
    the active branch is marked as the leaf."""
    tree, leaf = log.tree, log.leaf_id
    labels = log.labels
    shows = _SHOWS.get(filter) or (lambda entry: entry.id in labels and _is_any(entry))
    active = {entry.id for entry in log.path()}
    children = tree.children
    shown: list[SessionEntry] = []
    depths: list[int] = []
    leaf_index: int | None = None
    stack: list[tuple[SessionEntry, int]] = [(root, 0) for root in reversed(tree.roots())]
    while stack:
        entry, depth = stack.pop()
        while True:  # down a run of only children without touching the stack
            if shows(entry):
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

    return TreeRows(
        len(shown),
        row,
        leaf_index,
        entry_id=lambda index: shown[index].id,
        search_text=lambda index: search_text(describe(shown[index]) or "", labels.get(shown[index].id)),
    )
