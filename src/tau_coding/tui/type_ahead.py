"""Keys typed before the app was ready, as the key events they would have been.

A fast typist's keys reach Tau before Textual reads the terminal: arrows, Home/End, Ctrl+U,
Alt+Enter as well as text (``tau_coding.modes.interactive.type_ahead`` keeps them). ``key_events``
parses them with Textual's own terminal parser, so each becomes the event Textual would have
made had it been reading; the app then handles them in order as keys typed now, with every
binding and the editor's own editing (the early frame's echo stops at the first such key, see
``early_frame.py``). A line feed counts as Enter: the terminal turns Enter into one while it is
still in the shell's line mode, before the interactive mode switches it.
"""

from __future__ import annotations

from textual import events

# Private, as key_encodings' table is: Textual has no public parser for terminal input, and
# writing one would make keys typed early differ from keys typed later.
from textual._xterm_parser import XTermParser

from tau_coding.tui.key_encodings import install


def key_events(typed: str) -> list[events.Key]:
    """The key events ``typed`` (raw terminal input, decoded) stands for, in order; a lone ESC
    at the end is the Escape key."""
    if not typed:
        return []  # (the parser takes an empty string as the end of its input)
    install()  # the parser reads ESC CR as Alt+Enter, as the app's driver does
    parser = XTermParser()
    parsed = [*parser.feed(typed.replace("\n", "\r")), *parser.feed("")]
    return [event for event in parsed if isinstance(event, events.Key)]


__all__ = ["key_events"]
