"""Protected paths: the model may not write or edit secrets, the git directory or dependencies.

A ``tool_call`` gate: a ``write`` or ``edit`` whose path is (or is inside) one of ``PROTECTED``
is blocked with a reason the model reads. The list can be changed with the setting
``protectedPaths`` (a list of names).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from tau_coding.extensions import ExtensionAPI, ToolCallDecision, ToolCallEvent

PROTECTED = (".env", ".git", "node_modules", ".tau")


def is_protected(path: str, protected: tuple[str, ...] | list[str]) -> str | None:
    """The protected name ``path`` falls under, if any."""
    parts = PurePosixPath(path).parts
    return next((name for name in protected if name in parts or PurePosixPath(path).name == name), None)


def activate(tau: ExtensionAPI) -> None:
    @tau.on("tool_call")
    def guard(event: ToolCallEvent) -> ToolCallDecision | None:
        if event.tool_name not in ("write", "edit"):
            return None
        protected = tau.setting("protectedPaths", list(PROTECTED))
        hit = is_protected(str(event.input.get("path", "")), protected)
        if hit is None:
            return None
        return ToolCallDecision(
            block=True, reason=f"{event.input.get('path')} is protected ({hit}); leave it alone"
        )
