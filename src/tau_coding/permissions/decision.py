"""What the engine answers for one tool call, and the names shared with the tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# The bash tool's argument that asks to run outside the sandbox (Claude Code's name). A call
# with it true always asks, in every mode but yolo; where no one can be asked it is denied.
DISABLE_SANDBOX_ARG = "dangerouslyDisableSandbox"

Behavior = Literal["allow", "ask", "deny"]


@dataclass(frozen=True, slots=True)
class Decision:
    """``behavior`` for one call. ``reason`` says why, in words a user and a model can read;
    ``rule`` is the rule that decided, as written, if one did; ``suggestions`` are rules that
    would allow the call (offered by the approval dialog and named in a denial)."""

    behavior: Behavior
    reason: str
    rule: str | None = None
    suggestions: tuple[str, ...] = field(default=())
