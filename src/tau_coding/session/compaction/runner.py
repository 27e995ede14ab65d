"""Compacting a session log: plan, summarise, append the ``compaction`` entry.

The JSONL file is only ever appended to: the entry records the summary, the first entry
kept verbatim, the context size before, and the file lists in ``details``. Replaying the log
afterwards (``SessionLog.state``) gives the new context; the caller swaps it into the harness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.session.entries import BranchSummaryEntry, CompactionEntry
from tau_agent.session.log import SessionLog
from tau_coding.session.compaction.errors import CompactionCancelledError, NothingToCompactError
from tau_coding.session.compaction.planner import plan_compaction
from tau_coding.session.compaction.result import CompactionResult
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.session.compaction.summarizer import Summarizer, summarize_plan


def _details_for(log: SessionLog) -> Callable[[str], Any]:
    def details(entry_id: str) -> Any:
        entry = log.tree.get(entry_id)
        return entry.details if isinstance(entry, CompactionEntry | BranchSummaryEntry) else None

    return details


async def compact_log(
    log: SessionLog,
    summarizer: Summarizer,
    *,
    tokens_before: int,
    keep_recent_tokens: int,
    signal: CancellationToken,
    custom_instructions: str | None = None,
    shrink_tail: bool = False,
    keep_all_if_short: bool = False,
    summary: str | None = None,
) -> CompactionResult:
    """Summarise all but the recent tail of the log's current context; append the entry.

    With ``shrink_tail`` (after an overflow: the provider has the last word on size), a
    context that is all "recent" is compacted anyway with a quarter of the tail, then with
    only the latest message kept. Raises ``SummaryError`` (``NothingToCompactError`` when
    there is nothing to summarise); the log is unchanged then. With ``keep_all_if_short`` (a
    manual compaction, as in Pi), a context that is all "recent" is compacted keeping all of
    it, unless the path already ends in a compaction. A given ``summary`` (an extension's own)
    is recorded as it is and the model is not asked.
    """
    state = log.state()
    budgets = [keep_recent_tokens, keep_recent_tokens // 4, 0] if shrink_tail else [keep_recent_tokens]
    plan = None
    for budget in budgets:
        plan = plan_compaction(
            state.messages,
            state.message_entry_ids,
            keep_recent_tokens=budget,
            tokens_before=tokens_before,
            details_for=_details_for(log),
        )
        if plan is not None:
            break
    if plan is None and keep_all_if_short:
        if isinstance(log.tree.get(log.leaf_id), CompactionEntry):
            raise NothingToCompactError("nothing to compact: the session was just compacted")
        plan = plan_compaction(
            state.messages,
            state.message_entry_ids,
            keep_recent_tokens=keep_recent_tokens,
            tokens_before=tokens_before,
            details_for=_details_for(log),
            keep_all_if_short=True,
        )
        if plan is None:
            raise NothingToCompactError("nothing to compact: the session has no messages yet")
    if plan is None:
        raise NothingToCompactError("nothing to compact: the context is only recent messages")
    from_hook = summary is not None or None  # Pi's fromHook: an extension wrote the summary
    if summary is None:
        summary = await summarize_plan(plan, summarizer, signal, custom_instructions)
    if signal.cancelled:
        raise CompactionCancelledError("compaction cancelled")
    details = plan.file_ops.to_details()
    log.append_compaction(summary, plan.first_kept_entry_id, tokens_before, details, from_hook)
    return CompactionResult(summary, plan.first_kept_entry_id, tokens_before, details)


__all__ = ["CompactionResult", "CompactionSettings", "NothingToCompactError", "compact_log"]
