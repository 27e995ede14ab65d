"""Secrets never reach the model: tool output that looks like an API key or a private key is
masked (``tool_result`` may change a result before the model sees it)."""

from __future__ import annotations

import re

from tau_agent.content import TextContent, ToolResultContent
from tau_coding.extensions import ExtensionAPI, ToolResultEvent, ToolResultPatch

PATTERNS = [
    re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
]


def redact(text: str) -> tuple[str, int]:
    total = 0
    for pattern in PATTERNS:
        text, count = pattern.subn("[REDACTED]", text)
        total += count
    return text, total


def activate(tau: ExtensionAPI) -> None:
    @tau.on("tool_result")
    def mask(event: ToolResultEvent) -> ToolResultPatch | None:
        changed, content = 0, list[ToolResultContent]()
        for block in event.content:
            if isinstance(block, TextContent):
                text, count = redact(block.text)
                changed += count
                content.append(TextContent(text))
            else:
                content.append(block)
        if not changed:
            return None
        tau.notify(f"redacted {changed} secret(s) from {event.tool_name} output", "warning")
        return ToolResultPatch(content=content)
