"""Pi's keybindings.json, read as it is: Pi's namespaced action ids and key spellings.

Pi names actions ``app.model.select``, ``tui.input.newLine``, ...; Tau's TUI has its own ids
(keymap.ACTIONS). ``PI_ACTIONS`` maps each Pi id that has a Tau counterpart; the other Pi ids
(editor cursor keys, list navigation, dialogs' own keys) are known, so a Pi user's file loads
without a warning, and change nothing: Tau's editor and dialogs keep their keys (docs/tui.md).
"""

from __future__ import annotations

PI_ACTIONS: dict[str, str] = {
    "app.interrupt": "cancel_run",
    "app.clear": "interrupt",
    "app.editor.external": "external_editor",
    "app.model.select": "model_picker",
    "app.model.cycleForward": "cycle_model",
    "app.thinking.cycle": "cycle_thinking",
    "app.thinking.toggle": "toggle_thinking",
    "app.tools.expand": "toggle_tools",
    "app.message.followUp": "follow_up",
    "app.message.dequeue": "pull_queue",
    "tui.input.newLine": "newline",
    "app.suspend": "suspend",
    "tui.editor.undo": "undo",
}

# Pi 0.73's other ids: accepted, with no Tau binding to change.
PI_UNMAPPED = frozenset(
    {
        *(f"tui.editor.{name}" for name in (
            "cursorUp", "cursorDown", "cursorLeft", "cursorRight", "cursorWordLeft",
            "cursorWordRight", "cursorLineStart", "cursorLineEnd", "jumpForward", "jumpBackward",
            "pageUp", "pageDown", "deleteCharBackward", "deleteCharForward", "deleteWordBackward",
            "deleteWordForward", "deleteToLineStart", "deleteToLineEnd", "yank", "yankPop",
        )),
        "tui.input.submit", "tui.input.tab", "tui.input.copy",
        *(f"tui.select.{name}" for name in ("up", "down", "pageUp", "pageDown", "confirm", "cancel")),
        "app.exit", "app.clipboard.pasteImage", "app.model.cycleBackward",
        *(f"app.session.{name}" for name in (
            "new", "tree", "fork", "resume", "togglePath", "toggleSort", "toggleNamedFilter",
            "rename", "delete", "deleteNoninvasive",
        )),
        *(f"app.tree.{name}" for name in (
            "foldOrUp", "unfoldOrDown", "editLabel", "toggleLabelTimestamp", "filter.default",
            "filter.noTools", "filter.userOnly", "filter.labeledOnly", "filter.all",
            "filter.cycleForward", "filter.cycleBackward",
        )),
        *(f"app.models.{name}" for name in (
            "save", "enableAll", "clearAll", "toggleProvider", "reorderUp", "reorderDown",
        )),
    }
)  # fmt: skip

# Pi's key names that Textual spells differently.
_KEY_NAMES = {"esc": "escape", "return": "enter", "pageup": "pageup", "pagedown": "pagedown"}


def textual_key(key: str) -> str:
    """A Pi key string (``shift+ctrl+p``, ``pageUp``, ``esc``) in Textual's spelling."""
    parts = [part.strip() for part in key.split("+")]
    name = parts[-1]
    name = _KEY_NAMES.get(name.lower(), name if len(name) == 1 else name.lower())
    modifiers = sorted({part.lower() for part in parts[:-1]})  # Textual sorts them: alt, ctrl, shift
    return "+".join([*modifiers, name])
