"""A whole compaction made by the extension: its own summary, and the last N messages kept.

``session_before_compact`` returns ``CompactDecision(compaction=CompactionResult(...))``, Pi's
shape: the summary, the id of the first entry kept verbatim, the context size before, and
``details``. Tau checks the id (a message of the current context) and records it; a wrong one
is reported in one line and Tau compacts its own way. N is ``keepLast.messages`` (default 4).
With too few messages to summarise, Tau's own compaction runs.
"""

from __future__ import annotations

from tau_agent.content import text_of
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import CompactionEntry, MessageEntry
from tau_coding.extensions import CompactDecision, CompactEvent, CompactionResult, ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    @tau.on("session_before_compact")
    async def compact(event: CompactEvent) -> CompactDecision | None:
        keep = int(tau.setting("keepLast.messages", 4))
        since, earlier = 0, ""  # the latest compaction's summary stands for what came before it
        for index, entry in enumerate(event.branch_entries):
            if isinstance(entry, CompactionEntry):
                since, earlier = index + 1, entry.summary
        messages = [e for e in event.branch_entries[since:] if isinstance(e, MessageEntry)]
        cut = len(messages) - keep
        while cut > 0 and isinstance(messages[cut].message, ToolResultMessage):
            cut -= 1  # a kept tool result keeps the reply that called it
        if cut <= 0:
            return None
        dropped, kept = messages[:cut], messages[cut:]
        lines = [earlier] if earlier else []
        for entry in dropped:
            message = entry.message
            if isinstance(message, UserMessage | AssistantMessage):
                who = "user" if isinstance(message, UserMessage) else "assistant"
                text = " ".join(text_of(message.content).split())
                if text:
                    lines.append(f"- {who}: {text[:160]}")
        summary = "Earlier in this session:\n" + "\n".join(lines or ["- (tool calls only)"])
        return CompactDecision(
            compaction=CompactionResult(
                summary=summary,
                first_kept_entry_id=kept[0].id,
                tokens_before=event.tokens_before,
                details={"keptMessages": keep, "by": "keep_last_compaction"},
            )
        )
