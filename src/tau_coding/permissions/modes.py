"""Permission modes, their names (Tau's and Claude Code's) and the Shift+Tab order."""

from __future__ import annotations

from typing import Literal, get_args

PermissionMode = Literal["ask", "accept-edits", "plan", "yolo", "workspace"]
MODES: tuple[PermissionMode, ...] = get_args(PermissionMode)

ALIASES: dict[str, PermissionMode] = {
    "default": "ask",
    "acceptEdits": "accept-edits",
    "accept_edits": "accept-edits",
    "bypass": "yolo",
    "bypassPermissions": "yolo",
    "dontAsk": "workspace",
}
# The order Shift+Tab walks in the TUI (workspace is for runs where no one can be asked).
CYCLE: tuple[PermissionMode, ...] = ("ask", "accept-edits", "plan", "yolo")
# Where no one can be asked (print, json) and where someone can (TUI, RPC).
HEADLESS_DEFAULT: PermissionMode = "workspace"
INTERACTIVE_DEFAULT: PermissionMode = "ask"


def parse_mode(name: str) -> PermissionMode | None:
    """The mode ``name`` means (Tau's names and Claude Code's), or None."""
    for mode in MODES:
        if name == mode:
            return mode
    return ALIASES.get(name)


def known_names() -> str:
    return ", ".join([*MODES, *ALIASES])


def next_mode(mode: PermissionMode) -> PermissionMode:
    """The mode after ``mode`` in the Shift+Tab cycle (workspace goes to ask)."""
    if mode not in CYCLE:
        return CYCLE[0]
    return CYCLE[(CYCLE.index(mode) + 1) % len(CYCLE)]
