"""Ask before leaving a session that has messages: ``/new``, ``/resume``, ``/fork``, ``/tree``.

The ``session_before_*`` handlers are async: they wait for the user's answer to a dialog
(the TUI's confirm, or the RPC client's ``extension_ui_response``) and return ``Cancel`` to
stay. Print mode has nobody to ask: the dialog answers its default (stay).
"""

from __future__ import annotations

from tau_coding.extensions import Cancel, ExtensionAPI, ForkEvent, SwitchEvent, TreeEvent


def activate(tau: ExtensionAPI) -> None:
    async def ask(what: str) -> Cancel | None:
        if not tau.session.messages:
            return None  # nothing to lose
        if await tau.ui.confirm(f"{what}?", "This session keeps its messages; you can come back."):
            return None
        return Cancel(f"stayed: {what.lower()} declined")

    @tau.on("session_before_switch")
    async def before_switch(event: SwitchEvent) -> Cancel | None:
        return await ask("Start a new session" if event.reason == "new" else "Switch sessions")

    @tau.on("session_before_fork")
    async def before_fork(event: ForkEvent) -> Cancel | None:
        return await ask("Fork this session")

    @tau.on("session_before_tree")
    async def before_tree(event: TreeEvent) -> Cancel | None:
        return await ask("Move in the session tree")
