"""Encodings of Alt+Enter and Shift+Enter that Textual's key parser misreads, read as those keys.

Terminals send the two keys in several ways. Textual understands the kitty ones
(``ESC [13;3u``, ``ESC [13;2u``) but reads ESC CR (xterm's and tmux's Alt+Enter) as a plain
Enter, and xterm's modifyOtherKeys form (``ESC [27;<mod>;13~``) as a key named after the
carriage return itself. ``install`` teaches the parser ESC CR and ESC LF; ``normalized_key``
renames the misnamed keys. Both are safe to apply to every key.
"""

from __future__ import annotations

from enum import StrEnum
from typing import cast

from textual._ansi_sequences import ANSI_SEQUENCES_KEYS


class _Key(StrEnum):
    # The parser yields ``Key(member.value)`` for each member of a table entry.
    ALT_ENTER = "alt+enter"


# ESC before a key is how a terminal without a key protocol says Alt.
ALT_ENTER_SEQUENCES = ("\x1b\r", "\x1b\n")


def install() -> None:
    """Make the parser report ESC CR and ESC LF as Alt+Enter (idempotent)."""
    table = cast("dict[str, object]", ANSI_SEQUENCES_KEYS)
    for sequence in ALT_ENTER_SEQUENCES:
        table[sequence] = (_Key.ALT_ENTER,)


# xterm's ESC [27;<mod>;13~ arrives named "<modifiers>+\r", with Alt dropped from the name.
_MISNAMED: dict[str, str] = {
    "\r": "alt+enter",  # ESC [27;3;13~
    "shift+\r": "shift+enter",  # ESC [27;2;13~ (and 27;4 = Shift+Alt)
    "ctrl+\r": "ctrl+enter",
    "ctrl+shift+\r": "ctrl+shift+enter",
}


def normalized_key(key: str) -> str:
    """The name Textual's bindings know for ``key`` (unchanged for every other key)."""
    return _MISNAMED.get(key, key)
