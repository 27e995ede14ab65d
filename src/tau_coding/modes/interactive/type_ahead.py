"""Keys typed before the TUI is ready: kept, with Enter still meaning Enter.

Until the TUI takes the terminal it is in the shell's line mode: typed text is echoed, held
until Enter, and Enter arrives as a line feed, which the editor reads as Ctrl+J (a new line).
``TypeAhead.start`` switches the terminal, as early as the interactive mode can, to deliver
each key as typed (no echo, no line editing, Enter stays a carriage return); ``take`` reads
what is waiting, never blocking, just before the app starts, so the app can replay it
(``tau_coding.tui.type_ahead``); ``restore`` puts the terminal back as it was. Signals
(Ctrl+C) keep working throughout. Not a terminal: every method does nothing.
"""

from __future__ import annotations

import contextlib
import os
import select
from typing import IO, Any


class TypeAhead:
    """The terminal's input while the interactive mode starts up."""

    def __init__(self, fd: int | None = None, saved: list[Any] | None = None) -> None:
        self._fd = fd
        self._saved = saved

    @classmethod
    def start(cls, stream: IO[str] | None) -> TypeAhead:
        """Deliver keys as typed from now on (see the module); a no-op unless ``stream`` is a terminal."""
        import termios

        try:
            fd = stream.fileno() if stream is not None else -1
            saved = termios.tcgetattr(fd)
        except (AttributeError, OSError, ValueError, termios.error):
            return cls()
        keys = termios.tcgetattr(fd)
        keys[3] &= ~(termios.ICANON | termios.ECHO | termios.IEXTEN)  # local modes
        keys[0] &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR)  # input modes
        keys[6][termios.VMIN], keys[6][termios.VTIME] = 1, 0
        try:
            termios.tcsetattr(fd, termios.TCSANOW, keys)  # TCSANOW: what is typed already stays
        except termios.error:
            return cls()
        return cls(fd, saved)

    def take(self) -> str:
        """Everything typed and not yet read, decoded (empty when nothing was); never blocks."""
        if self._fd is None:
            return ""
        chunks: list[bytes] = []
        with contextlib.suppress(OSError):
            while select.select([self._fd], [], [], 0)[0]:
                data = os.read(self._fd, 4096)
                if not data:
                    break
                chunks.append(data)
        return b"".join(chunks).decode("utf-8", errors="ignore")

    def restore(self) -> None:
        """The terminal as it was before ``start`` (safe to call more than once)."""
        if self._fd is None or self._saved is None:
            return
        import termios

        with contextlib.suppress(termios.error):
            termios.tcsetattr(self._fd, termios.TCSANOW, self._saved)


__all__ = ["TypeAhead"]
