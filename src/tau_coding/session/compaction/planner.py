"""Where to cut a context for compaction, and what the summary must cover. Pure.

Walking back from the newest message, estimated tokens are added up until the recent tail
holds ``keep_recent_tokens``; the cut then moves to the nearest safe boundary, a message that
is not a tool result, so a tool call and its result always stay on the same side. Everything
before the cut (after an earlier summary, if any) is summarised; the tail is kept verbatim.

When the cut falls inside a turn (the kept tail starts with an assistant reply rather than
a user message), the turn's beginning is summarised separately as a *turn prefix*, so a
single turn too long to keep can still be compacted.

Asked to (a manual compaction, as Pi does it), a context that fits in the tail whole is
compacted all the same: nothing new is summarised, everything is kept, and the summary
starts at the first message (or updates the earlier one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_agent.messages import (
    AgentMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_coding.session.compaction.context_usage import estimate_message_tokens
from tau_coding.session.compaction.file_ops import FileOps, collect_file_ops

_TURN_STARTS = (UserMessage, BashExecutionMessage, CustomMessage, BranchSummaryMessage)


@dataclass(slots=True)
class CompactionPlan:
    """What one compaction does. ``first_kept_index`` indexes the planned messages."""

    first_kept_entry_id: str
    first_kept_index: int
    history: list[AgentMessage]
    turn_prefix: list[AgentMessage]
    previous_summary: str | None
    tokens_before: int
    file_ops: FileOps = field(default_factory=FileOps)

    @property
    def is_split_turn(self) -> bool:
        return bool(self.turn_prefix)


def is_safe_cut(message: AgentMessage, entry_id: str | None) -> bool:
    """A kept tail may start here: a stored message that is not a tool result or a summary."""
    return entry_id is not None and not isinstance(message, ToolResultMessage | CompactionSummaryMessage)


def find_cut(
    messages: Sequence[AgentMessage], entry_ids: Sequence[str | None], start: int, keep_recent_tokens: int
) -> int | None:
    """Index where the kept tail begins, or None when nothing before it could be summarised.

    The first safe index at or after the point where the tail reaches ``keep_recent_tokens``;
    when no safe index follows it (the tail is one reply's tool results), the nearest before.
    """
    n = len(messages)
    kept = 0
    point = start
    for index in range(n - 1, start - 1, -1):
        kept += estimate_message_tokens(messages[index])
        if kept >= keep_recent_tokens:
            point = index
            break
    else:
        return None  # everything fits in the tail
    cut = next((i for i in range(point, n) if is_safe_cut(messages[i], entry_ids[i])), None)
    if cut is None:
        cut = next(
            (i for i in range(point - 1, start - 1, -1) if is_safe_cut(messages[i], entry_ids[i])), None
        )
    if cut is None or cut <= start:
        return None
    return cut


def plan_compaction(
    messages: Sequence[AgentMessage],
    entry_ids: Sequence[str | None],
    *,
    keep_recent_tokens: int,
    tokens_before: int,
    details_for: Callable[[str], Any] = lambda _id: None,
    keep_all_if_short: bool = False,
) -> CompactionPlan | None:
    """The plan for compacting ``messages`` (a replayed context and its entry ids), or None.

    ``details_for(entry_id)`` gives the ``details`` of a compaction or branch-summary entry,
    whose file lists are carried into the new summary. With ``keep_all_if_short``, a context
    with nothing old enough to summarise gets a plan keeping all of it (None only when it
    holds no message a tail may start at).
    """
    if len(messages) != len(entry_ids):
        raise ValueError("messages and entry_ids differ in length")
    start = 0
    previous_summary: str | None = None
    earlier: list[Any] = []
    if messages and isinstance(messages[0], CompactionSummaryMessage):
        start = 1
        previous_summary = messages[0].summary
        if entry_ids[0] is not None:
            earlier.append(details_for(entry_ids[0]))
    cut = find_cut(messages, entry_ids, start, max(keep_recent_tokens, 0))
    if cut is None and keep_all_if_short:
        cut = next((i for i in range(start, len(messages)) if is_safe_cut(messages[i], entry_ids[i])), None)
    if cut is None:
        return None
    turn_start = cut
    if not isinstance(messages[cut], _TURN_STARTS):
        # A turn that began before an earlier compaction (its start is in that summary) is not
        # split again: what of it is cut now is folded into the summary as history. Made a
        # "beginning of the current turn" each time, a long run's summary grew by a section
        # per compaction and was never rewritten.
        turn_start = next(
            (i for i in range(cut - 1, start - 1, -1) if isinstance(messages[i], _TURN_STARTS)), cut
        )
    history = list(messages[start:turn_start])
    prefix = list(messages[turn_start:cut])
    for index in range(start, cut):
        entry_id = entry_ids[index]
        if entry_id is not None and isinstance(messages[index], BranchSummaryMessage):
            earlier.append(details_for(entry_id))
    first_kept = entry_ids[cut]
    assert first_kept is not None
    return CompactionPlan(
        first_kept_entry_id=first_kept,
        first_kept_index=cut,
        history=history,
        turn_prefix=prefix,
        previous_summary=previous_summary,
        tokens_before=tokens_before,
        file_ops=collect_file_ops([*history, *prefix], *earlier),
    )


__all__ = ["CompactionPlan", "find_cut", "is_safe_cut", "plan_compaction"]
