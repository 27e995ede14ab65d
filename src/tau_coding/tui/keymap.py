"""Remappable keys: ``TAU_HOME/keybindings.json`` maps an action to a key or a list of keys.

    {"cycle_model": "ctrl+n", "external_editor": ["ctrl+g", "ctrl+e"]}

Keys use Textual's names (``ctrl+x``, ``alt+enter``, ``shift+tab``, ``f2``, ``escape``).
Pi's keybindings.json (``app.model.select``, ``pageUp``, ...) works too (pi_keybindings.py).
An action left out keeps its default. Unknown actions and malformed values are reported (one
line each) and skipped; the rest still applies. The result is a Textual keymap (binding id ->
comma-separated keys) for ``App.set_keymap``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from tau_coding.tui.pi_keybindings import PI_ACTIONS, PI_UNMAPPED, textual_key

# Binding ids (= action names in keybindings.json) and what they do, for /hotkeys and errors.
ACTIONS: dict[str, str] = {
    "interrupt": "clear the editor; twice to quit (Ctrl+C)",
    "cancel_run": "cancel the run; twice on an empty editor opens the tree (Esc)",
    "pull_queue": "pull queued messages back into the editor (Alt+Up)",
    "toggle_thinking": "show or hide thinking (Ctrl+T)",
    "toggle_tools": "expand or collapse tool output (Ctrl+O)",
    "cycle_thinking": "cycle the thinking level (Alt+T)",
    "cycle_permissions": "cycle the permission mode (Shift+Tab)",
    "model_picker": "model picker (Ctrl+L)",
    "cycle_model": "next model in the scoped list (Ctrl+P)",
    "external_editor": "edit the prompt in $VISUAL/$EDITOR (Ctrl+G)",
    "newline": "new line in the editor (Shift+Enter, Ctrl+J)",
    "follow_up": "queue a follow-up (Alt+Enter)",
    "yank": "put back what Ctrl+K, Ctrl+U or Ctrl+W deleted (Ctrl+Y)",
    "page_up": "scroll the conversation up a page (PageUp, Shift+PageUp)",
    "page_down": "scroll the conversation down a page (PageDown, Shift+PageDown)",
    "scroll_top": "scroll to the start of the conversation (Ctrl+Home)",
    "scroll_bottom": "scroll to the end of the conversation and follow it (Ctrl+End)",
    "suspend": "suspend Tau to the shell; fg brings it back (Ctrl+Z)",
    "undo": "undo the last change in the editor (Ctrl+-)",
}


def parse_keybindings(data: object, source: str = "keybindings.json") -> tuple[dict[str, str], list[str]]:
    """A keymap from the decoded JSON, and one-line problems found in it."""
    if not isinstance(data, Mapping):
        return {}, [f"{source}: must hold a JSON object of action -> key(s)"]
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for given, value in data.items():
        if given in PI_UNMAPPED:  # Pi's ids with no Tau binding: known, nothing to change
            continue
        action = PI_ACTIONS.get(given, given)
        if action not in ACTIONS:
            problems.append(f"{source}: unknown action {action!r} (known: {', '.join(sorted(ACTIONS))})")
            continue
        keys = [value] if isinstance(value, str) else value
        if not isinstance(keys, list) or not keys or not all(isinstance(k, str) and k.strip() for k in keys):
            problems.append(f"{source}: {action!r} needs a key or a non-empty list of keys")
            continue
        if any("," in k for k in keys):
            problems.append(f"{source}: {action!r}: write several keys as a list, not with commas")
            continue
        keymap[action] = ",".join(textual_key(k) if given in PI_ACTIONS else k.strip() for k in keys)
    return keymap, problems


def load_keybindings(path: Path) -> tuple[dict[str, str], list[str]]:
    """Read and parse ``path``; a missing file is an empty keymap, not a problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, []
    except (OSError, UnicodeDecodeError) as exc:
        return {}, [f"{path}: cannot read: {exc}"]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return {}, [f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}"]
    except RecursionError:
        return {}, [f"{path}: invalid JSON: nested too deeply"]
    return parse_keybindings(data, str(path))
