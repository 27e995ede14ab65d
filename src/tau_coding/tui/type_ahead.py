"""Replaying keys typed before the app was ready into the prompt editor.

``steps`` turns the raw characters (as ``tau_coding.modes.interactive.type_ahead`` read them) into what
they mean for the editor: text to insert, Enter (a carriage return, or a line feed when the
terminal was still in line mode), Backspace. Escape sequences (arrows and the like) and other
control characters are dropped: where they would have moved is unknown before the first paint.
Pure; ``replay`` applies the steps, so each Enter submits what was typed before it, as it
would have once the app was ready.
"""

from __future__ import annotations

import re
from typing import Protocol

# The two keys, as steps; text never holds control characters, so a step is one or the other.
ENTER = "\r"
BACKSPACE = "\x7f"

# An escape sequence (CSI or SS3 with its parameters, or ESC and one character), a key that
# means something, or a run of plain text.
_TOKEN = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?|[\r\n]|[\x7f\x08]|[^\x00-\x1f\x7f]+|.", re.DOTALL)


class Editor(Protocol):
    def insert(self, text: str) -> object: ...

    def action_delete_left(self) -> object: ...

    def submit(self, *, follow_up: bool) -> None: ...


def steps(typed: str) -> list[str]:
    """``typed`` as editor steps: ``ENTER``, ``BACKSPACE``, or text to insert (merged runs)."""
    out: list[str] = []
    for match in _TOKEN.finditer(typed):
        token = match.group()
        if token in ("\r", "\n"):
            out.append(ENTER)
        elif token in ("\x7f", "\x08"):
            out.append(BACKSPACE)
        elif token[0] >= " " and token[0] != "\x7f":
            if out and out[-1] not in (ENTER, BACKSPACE):
                out[-1] += token
            else:
                out.append(token)
    return out


def replay(editor: Editor, typed: str) -> None:
    """Apply ``typed`` to ``editor`` as the keys would have been, had the app been ready."""
    for step in steps(typed):
        if step == ENTER:
            editor.submit(follow_up=False)
        elif step == BACKSPACE:
            editor.action_delete_left()
        else:
            editor.insert(step)


__all__ = ["BACKSPACE", "ENTER", "Editor", "replay", "steps"]
