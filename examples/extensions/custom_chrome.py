"""A header and a footer of the extension's own: the project name on top, turn and model below.

``tau.ui.set_header(lines)`` draws above the transcript; ``tau.ui.set_footer(lines)`` replaces
Tau's footer (``None`` brings it back: ``/chrome off``). Print mode keeps them without
drawing; RPC does not send them (as Pi).
"""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI, SessionStartEvent


def activate(tau: ExtensionAPI) -> None:
    turns = 0
    on = True

    def draw() -> None:
        if not on:
            tau.ui.set_header(None)
            tau.ui.set_footer(None)
            return
        tau.ui.set_header([f"── {tau.cwd.name} ──"])
        tau.ui.set_footer([f"{tau.model.provider}/{tau.model.id} · turns {turns}"])

    @tau.on("session_start")
    def start(event: SessionStartEvent) -> None:
        draw()

    @tau.on("turn_end")
    def turn(event: object) -> None:
        nonlocal turns
        turns += 1
        draw()

    def chrome(args: str) -> str:
        nonlocal on
        on = args.strip() != "off"
        draw()
        return f"custom header and footer {'on' if on else 'off'}"

    tau.register_command("chrome", chrome, description="custom header and footer: /chrome on|off")
