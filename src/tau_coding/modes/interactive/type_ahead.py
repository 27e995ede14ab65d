"""Keys typed before the TUI is ready: kept, with Enter still meaning Enter.

Until the TUI takes the terminal it is in the shell's line mode: typed text is echoed, held
until Enter, and Enter arrives as a line feed, which the editor reads as Ctrl+J (a new line).
``TypeAhead.start`` switches the terminal, as early as the interactive mode can, to deliver
each key as typed (no echo, no line editing, Enter stays a carriage return); ``take`` reads
what is waiting, never blocking, just before the app starts, so the app can replay it
(``tau_coding.tui.type_ahead``); ``restore`` puts the terminal back as it was. Signals
(Ctrl+C) keep working throughout. Not a terminal: every method does nothing.
In inline mode ``show_frame`` also draws the editor before the app is imported and echoes the
keys typed into it (``early_frame.py``); ``take`` then hands the screen over to the app.
"""

from __future__ import annotations

import contextlib
import os
import select
from typing import IO, Any

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows the name
if TYPE_CHECKING:
    from tau_coding.modes.interactive.early_frame import EarlyFrame


class TypeAhead:
    """The terminal's input while the interactive mode starts up."""

    def __init__(self, fd: int | None = None, saved: list[Any] | None = None) -> None:
        self._fd = fd
        self._saved = saved
        self._frame: EarlyFrame | None = None

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

    def show_frame(self, screen: IO[str] | None, cwd: str, home: str) -> None:
        """Draw the editor on ``screen`` and echo keys in it until ``take`` (``early_frame.py``);
        a no-op unless both the keys and ``screen`` are a terminal that can show it (not
        ``TERM=dumb``). For inline mode only: the full-screen app starts on a cleared screen."""
        if self._fd is None or self._frame is not None or os.environ.get("TERM", "dumb") == "dumb":
            return
        try:
            if screen is None or not screen.isatty():
                return
            out = screen.fileno()
        except (AttributeError, OSError, ValueError):
            return
        from tau_coding.modes.interactive.early_frame import EarlyFrame

        self._frame = EarlyFrame.show(self._fd, out, cwd, home)

    def take(self) -> str:
        """Everything typed and not yet read, decoded (empty when nothing was); never blocks.
        With the early frame shown, its echo stops and the cursor goes where the app's first
        frame must start (its top-left corner)."""
        if self._fd is None:
            return ""
        echoed, unread = "", b""
        if self._frame is not None:
            early = self._frame.hand_over()
            echoed, unread = early.text, early.unread()
        chunks: list[bytes] = [unread]
        with contextlib.suppress(OSError):
            while select.select([self._fd], [], [], 0)[0]:
                data = os.read(self._fd, 4096)
                if not data:
                    break
                chunks.append(data)
        return echoed + b"".join(chunks).decode("utf-8", errors="ignore")

    def restore(self) -> None:
        """The terminal as it was before ``start`` (safe to call more than once)."""
        if self._fd is None or self._saved is None:
            return
        if self._frame is not None:  # erased if the start ended before the app took the screen
            self._frame.hand_over(erase=True)
            self._frame.show_cursor()
        import termios

        with contextlib.suppress(termios.error):
            termios.tcsetattr(self._fd, termios.TCSANOW, self._saved)


__all__ = ["TypeAhead"]
