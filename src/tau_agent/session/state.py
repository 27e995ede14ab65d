"""Replay: what a session's entries mean for the next model call.

``SessionState.from_entries`` walks the root-to-leaf path once. The path's messages become
the context, in order, with Pi's rules: the latest ``compaction`` on the path stands first
as a summary, followed by the entries from its ``firstKeptEntryId`` up to it, then
everything after it; ``custom_message`` and ``branch_summary`` entries become messages;
``custom``, ``label``, ``session_info`` and unknown entries never do. The model is the latest
``model_change`` or assistant message on the path, the thinking level the latest
``thinking_level_change`` ("off" if none). Labels and the session name are collected over
the whole file, since they describe the file rather than one branch.

A tool call left without a result (a crash between the call and its result) gets an error
result right after its reply, since providers refuse such a transcript; these synthetic
results are in ``messages`` but are not entries (``message_entry_ids`` holds ``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
)
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
    is_leaf_marker,
    iso_to_ms,
)
from tau_agent.session.tree import SessionTree

INTERRUPTED_RESULT = "Tool call interrupted: the session ended before this tool returned a result"

_LAST = object()


@dataclass(frozen=True, slots=True)
class ModelRef:
    provider: str
    model_id: str


@dataclass(slots=True)
class SessionState:
    """The replayed view of a session at ``leaf_id``."""

    messages: list[AgentMessage] = field(default_factory=list)
    message_entry_ids: list[str | None] = field(default_factory=list)
    leaf_id: str | None = None
    model: ModelRef | None = None
    thinking_level: str = "off"
    labels: dict[str, str] = field(default_factory=dict)
    name: str | None = None
    repaired_tool_calls: int = 0

    @classmethod
    def from_entries(
        cls,
        entries: Sequence[SessionEntry],
        leaf_id: str | object | None = _LAST,
        tree: SessionTree | None = None,
        labels_and_name: tuple[dict[str, str], str | None] | None = None,
    ) -> SessionState:
        """Replay ``entries`` (file order) at ``leaf_id``; by default the leaf a resume would pick.

        Pass ``tree`` and ``labels_and_name`` (``collect_labels_and_name``) when they are
        already known for these entries, to skip going over them again.
        """
        leaf = resume_leaf(entries) if leaf_id is _LAST else leaf_id
        assert leaf is None or isinstance(leaf, str)
        index = tree if tree is not None else SessionTree(entries)
        state = cls(leaf_id=leaf)
        labels, state.name = labels_and_name or collect_labels_and_name(entries)
        state.labels = dict(labels)
        path = index.path(leaf)
        compaction_at = state._settings_from(path)
        context = _Context(state)
        if compaction_at < 0:
            context.take(path, 0, len(path))
        else:
            compaction = path[compaction_at]
            assert isinstance(compaction, CompactionEntry)
            state.messages.append(
                CompactionSummaryMessage(
                    compaction.summary, compaction.tokens_before, iso_to_ms(compaction.timestamp)
                )
            )
            state.message_entry_ids.append(compaction.id)
            first_kept = next(
                (i for i in range(compaction_at) if path[i].id == compaction.first_kept_entry_id),
                compaction_at,
            )
            context.take(path, first_kept, compaction_at)
            context.take(path, compaction_at + 1, len(path))
        context.finish()
        return state

    def _settings_from(self, path: list[SessionEntry]) -> int:
        """Model and thinking level from the path; returns the latest compaction's position on
        the path, or -1."""
        settings = settings_on_path(path)
        self.model = settings.model
        self.thinking_level = settings.thinking_level
        return settings.compaction_at


@dataclass(frozen=True, slots=True)
class PathSettings:
    """The model and thinking level a path records, as a replay reads them.

    ``model`` is None when nothing on the path names one; ``thinking_level`` is "off" when no
    ``thinking_level_change`` is on it. ``empty``: the path holds no entries at all (a new
    session, or a move to before the first entry)."""

    model: ModelRef | None = None
    thinking_level: str = "off"
    empty: bool = True
    compaction_at: int = -1


def settings_on_path(path: Sequence[SessionEntry]) -> PathSettings:
    """What ``path`` (root to leaf) records: the model is the latest ``model_change`` or reply
    naming its model, the thinking level the latest ``thinking_level_change``. The latest
    entry of each kind is found by ``list.index`` over the entries' types (C speed, where a
    Python loop over a long path is not), and only the messages after the latest model
    change are looked at for a reply naming its model."""
    kinds = list(map(type, path))
    backwards = kinds[::-1]

    def last(kind: type) -> int:
        try:
            return len(kinds) - 1 - backwards.index(kind)
        except ValueError:
            return -1

    thinking_level = "off"
    thinking_at = last(ThinkingLevelChangeEntry)
    if thinking_at >= 0:
        thinking = path[thinking_at]
        assert isinstance(thinking, ThinkingLevelChangeEntry)
        thinking_level = thinking.thinking_level
    model: ModelRef | None = None
    model_at = last(ModelChangeEntry)
    for position in range(len(path) - 1, model_at, -1):
        entry = path[position]
        if type(entry) is MessageEntry:
            message = entry.message
            if isinstance(message, AssistantMessage) and (message.provider or message.model):
                model = ModelRef(message.provider, message.model)
                break
    else:
        if model_at >= 0:
            change = path[model_at]
            assert isinstance(change, ModelChangeEntry)
            model = ModelRef(change.provider, change.model_id)
    return PathSettings(model, thinking_level, not path, last(CompactionEntry))


class _Context:
    """Appends a path's messages to a state, answering unanswered tool calls on the way.

    A reply's tool calls are answered by the tool results right after it; when anything
    else comes next (or nothing does), an error result is inserted there for each call
    still without one. Done inline rather than as a second pass: this runs for every
    message of a session being opened.
    """

    __slots__ = ("reply", "state", "unanswered")

    def __init__(self, state: SessionState) -> None:
        self.state = state
        self.reply: AssistantMessage | None = None  # the latest reply with calls still unanswered
        self.unanswered: set[str] = set()

    def take(self, path: list[SessionEntry], start: int, stop: int) -> None:
        add_message = self.state.messages.append
        add_id = self.state.message_entry_ids.append
        reply, unanswered = self.reply, self.unanswered
        for entry in path[start:stop]:
            message: AgentMessage
            if type(entry) is MessageEntry:
                message = entry.message
            elif isinstance(entry, CustomMessageEntry):
                message = CustomMessage(
                    entry.custom_type, entry.content, entry.display, entry.details, iso_to_ms(entry.timestamp)
                )
            elif isinstance(entry, BranchSummaryEntry) and entry.summary:
                message = BranchSummaryMessage(entry.summary, entry.from_id, iso_to_ms(entry.timestamp))
            else:
                continue
            if reply is not None:
                if isinstance(message, ToolResultMessage):
                    unanswered.discard(message.tool_call_id)
                    if not unanswered:
                        reply = None
                else:
                    self._answer(reply, unanswered)
                    reply = None
            add_message(message)
            add_id(entry.id)
            if isinstance(message, AssistantMessage):
                calls = [block.id for block in message.content if type(block) is ToolCall]
                if calls:
                    reply, unanswered = message, set(calls)
        self.reply, self.unanswered = reply, unanswered

    def finish(self) -> None:
        if self.reply is not None:
            self._answer(self.reply, self.unanswered)
            self.reply = None

    def _answer(self, reply: AssistantMessage, unanswered: set[str]) -> None:
        state = self.state
        for call in reply.tool_calls:
            if call.id in unanswered:
                unanswered.discard(call.id)  # a repeated id is answered once, as by a real result
                state.messages.append(
                    ToolResultMessage(
                        call.id,
                        call.name,
                        [TextContent(INTERRUPTED_RESULT)],
                        is_error=True,
                        timestamp=reply.timestamp,
                    )
                )
                state.message_entry_ids.append(None)
                state.repaired_tool_calls += 1


def resume_leaf(entries: Sequence[SessionEntry]) -> str | None:
    """The leaf a resume starts from: the last entry, or the target of a trailing leaf marker."""
    if not entries:
        return None
    last = entries[-1]
    if is_leaf_marker(last):
        return last.parent_id
    return last.id


def collect_labels_and_name(entries: Sequence[SessionEntry]) -> tuple[dict[str, str], str | None]:
    """Labels by target id (the latest label entry wins; an empty one clears) and the latest name."""
    labels: dict[str, str] = {}
    name: str | None = None
    kinds = set(map(type, entries))  # at C speed: most sessions hold neither kind
    if LabelEntry not in kinds and SessionInfoEntry not in kinds:
        return labels, name
    for entry in entries:
        if type(entry) is MessageEntry:
            continue
        if isinstance(entry, LabelEntry):
            if entry.label:
                labels[entry.target_id] = entry.label
            else:
                labels.pop(entry.target_id, None)
        elif isinstance(entry, SessionInfoEntry) and entry.name:
            name = entry.name.strip()
    return labels, name


def visible_entries(entries: Sequence[SessionEntry]) -> list[SessionEntry]:
    """Entries a tree view shows: everything but Tau's leaf markers."""
    return [e for e in entries if not (isinstance(e, CustomEntry) and is_leaf_marker(e))]


__all__ = [
    "INTERRUPTED_RESULT",
    "ModelRef",
    "PathSettings",
    "SessionState",
    "collect_labels_and_name",
    "resume_leaf",
    "settings_on_path",
    "visible_entries",
]
