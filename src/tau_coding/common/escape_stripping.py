"""Text that did not come from Tau, made safe to put on a terminal.

File contents, command output, model text and session files may hold escape sequences: an
OSC 52 clipboard write, a window-title change, a screen clear, a cursor move. Rich and Textual
drop only BEL, BS, VT, FF and CR and let ESC through, so such a sequence would reach the
terminal as it is. ``safe_text`` removes every escape sequence whole (CSI, OSC, DCS, SOS, PM,
APC, and their 8-bit forms) and every other control character except newline and tab.
"""

from __future__ import annotations

import re

_SEQUENCE = re.compile(
    r"""
      \x1b\[[0-?]*[ -/]*[@-~]?                  # CSI: parameters, intermediates, final byte
    | \x1b[\]PX^_][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?   # OSC, DCS, SOS, PM, APC strings
    | \x1b[ -/]*[0-~]?                          # any other escape (ESC c resets the terminal)
    | \x9b[0-?]*[ -/]*[@-~]?                    # 8-bit CSI
    | [\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?  # 8-bit strings
    """,
    re.VERBOSE,
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def safe_text(text: str) -> str:
    """``text`` without escape sequences or control characters (newline and tab stay; CR goes).
    What a person's ``!cmd`` run records for the model goes through this too, so it keeps
    every character a terminal would have shown at some point; a view that shows command
    output as a terminal left it applies ``carriage_returns`` first.

    Text without any control character is returned as it is, at the cost of one scan.
    """
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub("", _SEQUENCE.sub("", text))


def carriage_returns(text: str) -> str:
    """Each line as a terminal would leave it: a CR goes back to the line's start and what
    follows writes over what was there. A progress bar that redraws its line (``\r 40%``)
    shows its last state, not every state run together; CRLF line ends just lose the CR."""
    if "\r" not in text:
        return text
    return "\n".join(_overwritten(line) if "\r" in line else line for line in text.split("\n"))


def _overwritten(line: str) -> str:
    parts = line.split("\r")
    shown = parts[0]
    for part in parts[1:]:
        shown = part + shown[len(part) :]
    return shown
