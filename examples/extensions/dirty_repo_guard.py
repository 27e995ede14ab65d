"""No switching away from uncommitted work: ``/new``, ``/resume`` and ``/fork`` are refused
while ``git status`` shows changes.

``session_before_switch`` and ``session_before_fork`` handlers are asked from synchronous
code, so their ``Cancel`` counts only from plain functions like these.
"""

from __future__ import annotations

import subprocess

from tau_coding.extensions import Cancel, ExtensionAPI, ForkEvent, SwitchEvent


def activate(tau: ExtensionAPI) -> None:
    def changes() -> list[str]:
        try:
            done = subprocess.run(
                ["git", "-c", "core.fsmonitor=", "status", "--porcelain"],
                cwd=tau.cwd,
                capture_output=True,
                text=True,
                timeout=10,
            )
        except (OSError, subprocess.TimeoutExpired):
            return []
        return done.stdout.splitlines() if done.returncode == 0 else []

    def guard(event: SwitchEvent | ForkEvent) -> Cancel | None:
        dirty = changes()
        if not dirty:
            return None
        return Cancel(f"{len(dirty)} uncommitted change(s) in {tau.cwd.name}: commit or stash them first")

    tau.on("session_before_switch", guard)
    tau.on("session_before_fork", guard)
