"""Ask before any ``rm``: the model's shell commands that delete files need a yes.

The command is split into words the way the shell would (``shlex``), so ``rm`` hidden after
``&&`` or ``;`` is found too. Nobody to ask (print mode): refused, and the model is told why.
"""

from __future__ import annotations

import shlex

from tau_coding.extensions import ExtensionAPI, ToolCallDecision, ToolCallEvent

SEPARATORS = {"&&", "||", ";", "|", "&"}


def removes_files(command: str) -> bool:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return "rm" in command  # unbalanced quotes: err on the side of asking
    starts = [0] + [i + 1 for i, w in enumerate(words) if w in SEPARATORS]
    return any(i < len(words) and words[i] in ("rm", "/bin/rm", "unlink", "rmdir") for i in starts)


def activate(tau: ExtensionAPI) -> None:
    @tau.on("tool_call")
    async def confirm(event: ToolCallEvent) -> ToolCallDecision | None:
        command = str(event.input.get("command", ""))
        if event.tool_name != "bash" or not removes_files(command):
            return None
        if await tau.ui.confirm("Delete files?", command):
            return ToolCallDecision(permission="allow")
        return ToolCallDecision(block=True, reason="the user did not allow deleting files")
