"""Esc reaches the app as soon as it is pressed, not 100-200 ms later.

A terminal sends Esc as a lone ESC byte, and starts most other keys' sequences with the same
byte. Textual's parser, having read an ESC, waits 100 ms for the rest of a sequence, and its
input thread checks that wait only when ``select`` returns: every 100 ms when no other input
comes. So a lone Esc arrived 100-200 ms after the key (inline mode hid some of it: the
terminal's replies to cursor queries are input too). Issue 22 asks Esc to cancelled ≤ 50 ms.

``QuickEscape`` replaces the drivers' input loop: trailing ESC bytes of a read are held back
from the parser, and if nothing follows within ``escape_delay`` (10 ms, or ``$ESCDELAY`` in
milliseconds as ncurses reads it; 10 ms is tmux's own escape-time since 3.5: a terminal writes a
key's sequence at once, so its bytes arrive together) they become Esc keys; if more bytes come, the parser gets
the ESC bytes with them, as one read (a sequence split between reads). Nothing is held inside
a bracketed paste, where an ESC is text and the paste's end marker must stay whole.
"""

from __future__ import annotations

import os
import selectors
import threading
from codecs import getincrementaldecoder
from collections.abc import Iterable, Mapping

from textual import events
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.drivers.linux_inline_driver import LinuxInlineDriver
from textual.message import Message

ESC = "\x1b"
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
DEFAULT_DELAY_MS = 10
IDLE_WAIT = 0.1  # Textual's: how often the loop looks at the exit flag and the parser's timeouts


def escape_delay(environ: Mapping[str, str]) -> float:
    """Seconds to wait after a lone ESC for more bytes: ``$ESCDELAY`` (ms) when it is a positive
    whole number, else 10 ms."""
    value = environ.get("ESCDELAY", "")
    return (int(value) if value.isdigit() and int(value) > 0 else DEFAULT_DELAY_MS) / 1000


class HeldEscapes:
    """What of the input goes to the parser now, and the trailing ESC bytes kept back."""

    def __init__(self) -> None:
        self.held = ""
        self._in_paste = False
        self._recent = ""  # the end of the last input: a paste marker may be split between reads

    def take(self, data: str) -> str:
        """``data``, after any ESC bytes held from before, minus the ESC bytes it ends with
        (outside a paste); what is returned goes to the parser."""
        data, self.held = self.held + data, ""
        window = self._recent + data
        start, end = window.rfind(PASTE_START), window.rfind(PASTE_END)
        if start != end:  # a marker in this read (-1 for neither: the state stays)
            self._in_paste = start > end
        self._recent = window[-len(PASTE_START) :]
        if not self._in_paste:
            kept = data.rstrip(ESC)
            self.held, data = data[len(kept) :], kept
        return data

    def expire(self) -> int:
        """Nothing followed the held ESC bytes in time: how many Esc keys they were."""
        count, self.held = len(self.held), ""
        return count


class QuickEscape(Driver):
    """Textual's input loop with held trailing ESC bytes (see the module docstring), mixed in
    ahead of the full-screen or the inline driver (which set the two attributes below); the
    inline one keeps its cursor reports."""

    fileno: int
    exit_event: threading.Event

    def run_input_thread(self) -> None:
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = XTermParser(debug=False)
        decode = getincrementaldecoder("utf-8")().decode
        held = HeldEscapes()
        delay = escape_delay(os.environ)
        try:
            while not self.exit_event.is_set():
                ready = selector.select(delay if held.held else IDLE_WAIT)
                if ready:
                    raw = os.read(self.fileno, 4096)
                    if not raw:  # stdin closed (piped)
                        break
                    data = held.take(decode(raw))  # empty: half a character, or only ESCs
                    if data:  # an empty feed would tell the parser the input ended
                        self._deliver(parser.feed(data))
                elif held.held:
                    self._deliver(events.Key("escape", ESC) for _ in range(held.expire()))
                self._deliver(parser.tick())
        finally:
            selector.close()

    def _deliver(self, messages: Iterable[Message]) -> None:
        for message in messages:
            if isinstance(message, events.CursorPosition) and isinstance(self, LinuxInlineDriver):
                self.cursor_origin = (message.x, message.y)
            else:
                self.process_message(message)


class FullscreenDriver(QuickEscape, LinuxDriver):
    """Textual's full-screen driver with Esc delivered at once."""
