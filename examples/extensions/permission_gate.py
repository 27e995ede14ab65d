"""Ask before the model runs a dangerous shell command; without a person to ask, refuse it."""

from __future__ import annotations

import re

from tau_coding.extensions import ExtensionAPI, ToolCallDecision, ToolCallEvent

DANGEROUS = [
    re.compile(pattern)
    for pattern in (
        r"\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+",  # rm -rf, rm -r -f, rm -fr ...
        r"\bsudo\b",
        r"\bmkfs(\.\w+)?\b",
        r"\bdd\b.*\bof=/dev/",
        r"\bchmod\s+(-R\s+)?777\b",
        r"\bgit\s+push\s+.*--force\b",
        r">\s*/dev/sd[a-z]",
    )
]


def dangerous(command: str) -> bool:
    return any(pattern.search(command) for pattern in DANGEROUS)


def activate(tau: ExtensionAPI) -> None:
    @tau.on("tool_call")
    async def gate(event: ToolCallEvent) -> ToolCallDecision | None:
        command = str(event.input.get("command", "")) if event.tool_name == "bash" else ""
        if not command or not dangerous(command):
            return None
        if await tau.ui.confirm("Dangerous command", f"Allow the model to run: {command}", default=False):
            return None
        return ToolCallDecision(
            block=True, reason=f"Blocked by permission gate: {command!r} needs a person's approval"
        )
