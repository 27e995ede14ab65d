"""The approval seam: one question about one tool call, answered by whoever can answer.

The TUI answers with a dialog, RPC with a ``permission_request`` its client answers; print and
JSON modes have no approver, so what would ask is denied there (gate.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Choice = Literal["once", "session", "project", "deny"]
CHOICES: tuple[Choice, ...] = ("once", "session", "project", "deny")


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """``summary`` is one line naming the call; ``reason`` says why it asks; ``suggestions``
    are the rules "yes for this session" and "yes, add to the project" would add; ``preview``
    is what the call would change (a unified diff for edit and write), or empty."""

    tool: str
    args: Mapping[str, Any]
    summary: str
    reason: str
    suggestions: tuple[str, ...] = field(default=())
    preview: str = ""


@dataclass(frozen=True, slots=True)
class Approval:
    """``once``: run this call; ``session``: run it and remember the suggested rules until the
    session ends; ``project``: that, and add them to .tau/settings.json; ``deny``: do not run
    it, and tell the model ``reason``."""

    choice: Choice
    reason: str = ""


class Approver(Protocol):
    async def __call__(self, request: ApprovalRequest) -> Approval: ...


def summary(tool: str, args: Mapping[str, Any]) -> str:
    """One line naming a call: the command for bash, the path for file tools."""
    for key in ("command", "path", "url"):
        value = args.get(key)
        if isinstance(value, str) and value:
            first = value.strip().splitlines()[0] if value.strip() else value
            more = " ..." if len(value.strip().splitlines()) > 1 else ""
            return f"{tool}: {first[:200]}{more}"
    return tool
