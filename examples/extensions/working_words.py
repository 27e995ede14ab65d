"""What the agent is doing, in words, and snippets pasted into the editor.

While a run goes on, the footer says ``reading the code…`` instead of ``working…``
(``tau.ui.set_working_message``; None gives Tau's own back). ``/snippet <name>`` pastes a saved
snippet into the editor as a terminal paste would (``tau.ui.paste_to_editor``: a long one shows
collapsed, ``[paste #1 ...]``). ``/cheatsheet`` shows the snippets in an overlay over the
conversation (``tau.ui.custom(..., overlay=True)``; Esc closes it). In RPC mode the working
message is not sent and a paste is a ``set_editor_text`` (as Pi); print mode keeps both.
"""

from __future__ import annotations

from typing import Any

from tau_coding.extensions import ExtensionAPI

SNIPPETS = {
    "review": "Review the last change for bugs and missing tests.",
    "explain": "Explain what this code does, step by step:",
}


def make_cheatsheet() -> Any:
    from textual.widgets import Static  # only the TUI calls this: print mode never loads Textual

    lines = [f"{name:8} {text}" for name, text in SNIPPETS.items()]
    return Static("\n".join(["snippets (Esc closes)", *lines]), id="cheatsheet")


def activate(tau: ExtensionAPI) -> None:
    @tau.on("agent_start")
    def started(event: object) -> None:
        tau.ui.set_working_message("reading the code…")

    @tau.on("agent_end")
    def ended(event: object) -> None:
        tau.ui.set_working_message(None)

    def snippet(args: str) -> str | None:
        text = SNIPPETS.get(args.strip())
        if text is None:
            return f"snippets: {', '.join(SNIPPETS)}"
        tau.ui.paste_to_editor(text)
        return None

    async def cheatsheet(args: str) -> str | None:
        await tau.ui.custom(make_cheatsheet, overlay=True)
        return None

    tau.register_command(
        "snippet", snippet, description="paste a snippet into the editor", complete=lambda p: list(SNIPPETS)
    )
    tau.register_command("cheatsheet", cheatsheet, description="the snippets, over the conversation")
