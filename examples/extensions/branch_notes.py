"""A branch summary without the model: when ``/tree`` leaves a branch with "summarise", the
summary lists what the user asked on it and which files its tools touched.

``session_before_tree`` may answer ``TreeDecision(summary=..., details=...)``: Tau records it as
the branch summary (``fromHook``) and does not ask the model, which costs nothing and takes no
time. It answers only when a summary was asked for (``event.user_wants_summary``); a move
without one goes on as it is. ``session_tree`` hears the entry recorded.
"""

from __future__ import annotations

from tau_agent.content import text_of
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import MessageEntry
from tau_coding.extensions import ExtensionAPI, TreeDecision, TreeEvent


def notes(event: TreeEvent) -> tuple[str, dict[str, list[str]]]:
    """The summary text and its details from the branch left behind."""
    asked: list[str] = []
    files: set[str] = set()
    for entry in event.entries_to_summarize:
        if not isinstance(entry, MessageEntry):
            continue
        message = entry.message
        if isinstance(message, UserMessage):
            asked.append(text_of(message.content))
        elif isinstance(message, AssistantMessage):
            for call in message.tool_calls:
                path = call.arguments.get("path")
                if isinstance(path, str):
                    files.add(path)
    lines = ["The branch left behind (notes, not a model's summary):"]
    lines += [f"- asked: {text}" for text in asked] or ["- nothing was asked"]
    if files:
        lines.append("- files: " + ", ".join(sorted(files)))
    return "\n".join(lines), {"asked": asked, "files": sorted(files)}


def activate(tau: ExtensionAPI) -> None:
    def before_tree(event: TreeEvent) -> TreeDecision | None:
        if not event.user_wants_summary:
            return None
        summary, details = notes(event)
        return TreeDecision(summary=summary, details=details)

    def after_tree(event: TreeEvent) -> None:
        if event.from_extension:
            tau.ui.notify("branch notes written", "info")

    tau.on("session_before_tree", before_tree)
    tau.on("session_tree", after_tree)
