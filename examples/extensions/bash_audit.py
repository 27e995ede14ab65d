"""The user's own ``!commands`` audited: each is recorded in the session file, and a few
catastrophic ones are refused without running (``user_bash`` may answer a command itself)."""

from __future__ import annotations

import re

from tau_coding.extensions import ExtensionAPI, UserBashEvent, UserBashPatch

REFUSED = re.compile(r"\brm\s+-[a-zA-Z]*[rf][a-zA-Z]*\s+(/|~)(\s|$)|\bmkfs\b|\bdd\b.*\bof=/dev/")


def activate(tau: ExtensionAPI) -> None:
    @tau.on("user_bash")
    def audit(event: UserBashEvent) -> UserBashPatch | None:
        refused = bool(REFUSED.search(event.command))
        tau.append_entry("bash-audit", {"command": event.command, "refused": refused, "cwd": event.cwd})
        if refused:
            return UserBashPatch(output=f"refused by bash_audit: {event.command}", exit_code=1)
        return None
