"""A compaction summary written by the extension, not the model: the user's requests, listed.

``session_before_compact`` may return ``CompactDecision(summary=...)``; Tau records it (with
``fromHook``) and keeps its usual recent tail. ``/compact keep`` is refused instead.
"""

from __future__ import annotations

from tau_agent.content import text_of
from tau_agent.messages import UserMessage
from tau_coding.extensions import CompactDecision, CompactEvent, ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    @tau.on("session_before_compact")
    def summarize(event: CompactEvent) -> CompactDecision:
        if event.custom_instructions.strip() == "keep":
            return CompactDecision(cancel=True)
        asks = [text_of(m.content) for m in tau.session.messages if isinstance(m, UserMessage)]
        lines = [f"{n}. {text.strip()[:200]}" for n, text in enumerate(asks, 1)]
        return CompactDecision(summary="The user asked, in order:\n" + "\n".join(lines))
