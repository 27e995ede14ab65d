"""An editor of its own: Tau's prompt editor with a live word count under it.

``tau.ui.set_editor_component(make)`` swaps the TUI's editor for ``make(sources, history)``, a
subclass of ``PromptEditor`` (imported inside ``make``, so print mode never loads the TUI).
Keep the constructor's arguments and Enter keeps sending. ``/wordcount off`` brings Tau's
editor back; what was typed carries over both ways.
"""

from __future__ import annotations

from typing import Any

from tau_coding.extensions import ExtensionAPI, SessionStartEvent


def make(sources: Any, history: Any) -> Any:
    from textual.widgets import TextArea

    from tau_coding.tui.widgets.prompt_editor import PromptEditor

    class WordCountEditor(PromptEditor):
        def on_text_area_changed(self, event: TextArea.Changed) -> None:
            words = len(self.text.split())
            self.border_subtitle = f"{words} word{'' if words == 1 else 's'}" if words else ""

    return WordCountEditor(sources, history)


def activate(tau: ExtensionAPI) -> None:
    @tau.on("session_start")
    async def start(event: SessionStartEvent) -> None:
        await tau.ui.set_editor_component(make)

    async def toggle(args: str) -> str:
        on = args.strip() != "off"
        await tau.ui.set_editor_component(make if on else None)
        return f"word count editor {'on' if on else 'off'}"

    tau.register_command("wordcount", toggle, description="a word count under the editor: on|off")
