"""A lighter context: tool results older than the last ``KEEP`` are cut to their first lines in
what is sent to the model (``context`` changes one request's copy; the session keeps all)."""

from __future__ import annotations

from msgspec.structs import replace

from tau_agent.content import TextContent
from tau_agent.messages import AgentMessage, ToolResultMessage
from tau_coding.extensions import ContextEvent, ExtensionAPI

KEEP = 3
HEAD = 5


def trim(messages: list[AgentMessage]) -> list[AgentMessage]:
    results = [i for i, m in enumerate(messages) if isinstance(m, ToolResultMessage)]
    old = set(results[:-KEEP]) if len(results) > KEEP else set()
    out: list[AgentMessage] = []
    for index, message in enumerate(messages):
        if index in old and isinstance(message, ToolResultMessage):
            text = "".join(b.text for b in message.content if isinstance(b, TextContent))
            lines = text.splitlines()
            if len(lines) > HEAD:
                kept = "\n".join(lines[:HEAD]) + f"\n[… {len(lines) - HEAD} older lines left out]"
                message = replace(message, content=[TextContent(kept)])
        out.append(message)
    return out


def activate(tau: ExtensionAPI) -> None:
    @tau.on("context")
    def lighter(event: ContextEvent) -> list[AgentMessage]:
        return trim(event.messages)
