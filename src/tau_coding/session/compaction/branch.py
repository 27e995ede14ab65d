"""Branch summaries: what an abandoned path of the session tree did, recorded where work resumes.

``abandoned_entries`` (pure) is the path from the old leaf back to the common ancestor with
the new position, stopping after a compaction (what came before it is summarised there
already). ``branch_messages`` turns it into messages, newest first within a token budget,
and ``summarize_branch`` asks the summariser and appends a ``branch_summary`` entry at the
new position, with the branch's file lists in ``details``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tau_agent.cancellation import CancellationToken
from tau_agent.messages import AgentMessage, BranchSummaryMessage, CompactionSummaryMessage, CustomMessage
from tau_agent.session.codec import CodecError
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    MessageEntry,
    SessionEntry,
)
from tau_agent.session.log import SessionLog
from tau_agent.session.tree import SessionTree
from tau_coding.session.compaction import prompts
from tau_coding.session.compaction.context_usage import estimate_message_tokens
from tau_coding.session.compaction.file_ops import collect_file_ops, file_lists_text
from tau_coding.session.compaction.summarizer import Summarizer


def abandoned_entries(tree: SessionTree, old_leaf: str | None, new_leaf: str | None) -> list[SessionEntry]:
    """Entries on the old path that the new one does not share, oldest first."""
    shared = {entry.id for entry in tree.path(new_leaf)}
    out: list[SessionEntry] = []
    for entry in reversed(tree.path(old_leaf)):
        if entry.id in shared:
            break
        out.append(entry)
        if isinstance(entry, CompactionEntry):
            break
    out.reverse()
    return out


def branch_messages(entries: Sequence[SessionEntry], max_tokens: int) -> list[AgentMessage]:
    """The entries' messages, keeping the newest that fit in ``max_tokens``."""
    messages: list[AgentMessage] = []
    for entry in entries:
        if isinstance(entry, MessageEntry):
            try:
                messages.append(entry.message)
            except CodecError:
                continue
        elif isinstance(entry, CustomMessageEntry):
            messages.append(CustomMessage(entry.custom_type, entry.content, entry.display, entry.details))
        elif isinstance(entry, BranchSummaryEntry) and entry.summary:
            messages.append(BranchSummaryMessage(entry.summary, entry.from_id))
        elif isinstance(entry, CompactionEntry):
            messages.append(CompactionSummaryMessage(entry.summary, entry.tokens_before))
    total = 0
    first = len(messages)
    for index in range(len(messages) - 1, -1, -1):
        total += estimate_message_tokens(messages[index])
        if total > max_tokens and first < len(messages):
            break
        first = index
    return messages[first:]


async def summarize_branch(
    log: SessionLog,
    new_leaf: str | None,
    summarizer: Summarizer,
    signal: CancellationToken,
    custom_instructions: str | None = None,
    replace_instructions: bool = False,
) -> BranchSummaryEntry | None:
    """Move the log to ``new_leaf`` with a summary of the path left behind.

    ``replace_instructions`` (with non-blank ``custom_instructions``): those are the whole
    instruction after the transcript, instead of a focus added to Tau's own.

    Returns None (and only navigates) when the old path has nothing the new one lacks.
    Raises ``SummaryError`` with the log untouched when the summary fails.
    """
    entries = abandoned_entries(log.tree, log.leaf_id, new_leaf)
    budget = max(1_000, summarizer.model.context_window - summarizer.reserve_tokens)
    messages = branch_messages(entries, budget)
    if not messages:
        log.navigate(new_leaf)
        return None
    earlier = [e.details for e in entries if isinstance(e, CompactionEntry | BranchSummaryEntry)]
    ops = collect_file_ops(messages, *earlier)
    if replace_instructions and custom_instructions and custom_instructions.strip():
        instruction, custom_instructions = custom_instructions.strip(), None
    else:
        instruction = prompts.BRANCH
    summary = await summarizer.fold(messages, instruction, signal, custom_instructions=custom_instructions)
    assert summary is not None
    files = file_lists_text(ops)
    text = f"{summary}\n\n{files}" if files else summary
    return log.append_branch_summary(new_leaf, text, ops.to_details())


__all__ = ["abandoned_entries", "branch_messages", "summarize_branch"]
