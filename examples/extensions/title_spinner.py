"""The terminal title says when the agent works: ``τ ⏳ project`` during a run, Tau's own title
after (``set_title(None)``). Handy with many terminal tabs."""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    @tau.on("agent_start")
    def working(event: object) -> None:
        tau.ui.set_title(f"τ ⏳ {tau.cwd.name}")

    @tau.on("agent_end")
    def idle(event: object) -> None:
        tau.ui.set_title(None)
