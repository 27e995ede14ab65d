"""A whole compaction an extension made (``session_before_compact``): checked, then recorded.

``problem`` is pure: it says why a compaction cannot be recorded on this context (None: it
can). ``record`` appends it to the log (``fromHook``) as Tau's own compaction would be.
"""

from __future__ import annotations

from tau_agent.messages import CompactionSummaryMessage
from tau_agent.session.log import SessionLog
from tau_agent.session.state import SessionState
from tau_coding.session.compaction.result import CompactionResult


def problem(state: SessionState, compaction: CompactionResult) -> str | None:
    """Why ``compaction`` does not fit the context ``state`` replays (None: it fits).

    Its ``first_kept_entry_id`` must be a message of the context now (not the summary of an
    earlier compaction), and its summary must not be blank.
    """
    kept = compaction.first_kept_entry_id
    if not compaction.summary.strip():
        return "its summary is empty"
    try:
        index = state.message_entry_ids.index(kept)
    except ValueError:
        return f"first_kept_entry_id {kept!r} is not a message of the current context"
    if isinstance(state.messages[index], CompactionSummaryMessage):
        return f"first_kept_entry_id {kept!r} is an earlier compaction's summary"
    return None


def record(log: SessionLog, compaction: CompactionResult, tokens_before: int) -> CompactionResult:
    """Append ``compaction`` (already checked); a ``tokens_before`` of 0 or less takes Tau's."""
    size = compaction.tokens_before if compaction.tokens_before > 0 else tokens_before
    summary, kept, details = compaction.summary, compaction.first_kept_entry_id, compaction.details
    log.append_compaction(summary, kept, size, details, True)
    return CompactionResult(summary, kept, size, details)
