"""The editor drawn, and keys echoed in it, before Textual is imported (inline mode).

Importing Textual and building the app take most of the time before its first frame; the user
can type meanwhile. So the interactive mode draws that frame's first rows itself, with plain
ANSI: the editor's box with its placeholder and the footer's first line (the directory), in
the rows and columns the app's first inline frame uses, and a reader thread echoes what is
typed into the box. Printable text and Backspace are echoed; the first other key (Enter, an
escape sequence, a control key) ends the echo, and it and everything after it are left for the
app, as keys typed before it are (``type_ahead.py``). ``EarlyFrame.hand_over`` stops the
reader and puts the cursor back at the box's top-left corner, where the app's inline region
starts, so its first frame is drawn over this one.

``echo`` and ``frame_rows``/``box_row`` are pure; ``EarlyFrame`` does the reading and writing.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import termios
import threading
from dataclasses import dataclass, replace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows the name
if TYPE_CHECKING:
    from typing import Any

# The editor's placeholder (tui/widgets/prompt_editor.py): the same text, so the app's frame
# replaces this one without a visible change.
PLACEHOLDER = "Ask anything · / commands · @ files · !cmd shell · /hotkeys for keys"
TEXT_COLUMN = 3  # " │ " before the text
FRAME_ROWS = 4  # the box (3 rows) and the footer's first line
TEXT_ROW = 1  # the box's middle row, where the text is typed
MIN_WIDTH = 20  # narrower, no early frame: the box would hold next to nothing

_DIM, _PLAIN = "\x1b[2m", "\x1b[0m"


@dataclass(frozen=True)
class Echoed:
    """What the keys read so far mean: ``text`` shown in the box (Backspace applied); ``kept``,
    from the first key that is not echoed on, bytes for the app; ``partial``, the first bytes of
    a character whose rest has not been read yet."""

    text: str = ""
    kept: bytes = b""
    partial: bytes = b""

    @property
    def stopped(self) -> bool:
        """A key that is not echoed came: the rest is the app's."""
        return bool(self.kept)

    def unread(self) -> bytes:
        """The bytes read but not shown, for the app: what was kept, or a character's start."""
        return self.kept + self.partial


def _utf8_length(lead: int) -> int:
    """Bytes in the UTF-8 character starting with ``lead``; 0 when it cannot start one."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def echo(state: Echoed, chunk: bytes) -> Echoed:
    """``state`` after the bytes ``chunk`` (as read from the terminal, split anywhere)."""
    if state.stopped:
        return replace(state, kept=state.kept + chunk)
    data, text, i = state.partial + chunk, state.text, 0
    while i < len(data):
        byte = data[i]
        if 0x20 <= byte < 0x7F:
            text += chr(byte)
            i += 1
            continue
        if byte in (0x7F, 0x08):  # Backspace, as terminals send it
            text = text[:-1]
            i += 1
            continue
        size = _utf8_length(byte)
        if size and i + size > len(data):
            return Echoed(text, partial=data[i:])
        try:
            char = data[i : i + size].decode("utf-8") if size else "\x00"
        except UnicodeDecodeError:
            char = "\x00"
        if not char.isprintable():  # a control key, ESC, or bytes that are not text
            return Echoed(text, kept=data[i:])
        text += char
        i += size
    return Echoed(text)


def _cells(char: str) -> int:
    import unicodedata

    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def box_row(text: str, width: int) -> tuple[str, int]:
    """The box's middle row for a terminal ``width`` columns wide, holding ``text`` (its end, when
    it does not fit) or the placeholder; and the column the cursor goes to."""
    room = width - TEXT_COLUMN - 3  # " │ " before, " │ " after (the last column stays blank)
    shown, used = "", 0
    for char in reversed(text):
        if used + _cells(char) > room:
            break
        shown, used = char + shown, used + _cells(char)
    if text:
        return f" │ {shown}{' ' * (room - used)} │", TEXT_COLUMN + used
    hint = PLACEHOLDER[:room]
    return f" │ {_DIM}{hint}{_PLAIN}{' ' * (room - len(hint))} │", TEXT_COLUMN


def frame_rows(width: int, cwd: str, home: str) -> list[str]:
    """The frame's rows: the box (its middle row empty) and the footer's first line, the
    directory with the home folder as ``~`` (as the app's footer shows it)."""
    if home and (cwd == home or cwd.startswith(home.rstrip("/") + "/")):
        cwd = "~" + cwd[len(home.rstrip("/")) :]
    if len(cwd) > width - 3:
        cwd = cwd[: width - 4] + "…"
    rule = "─" * (width - 4)
    return [f" ╭{rule}╮", box_row("", width)[0], f" ╰{rule}╯", f"  {_DIM}{cwd}{_PLAIN}"]


class EarlyFrame:
    """The frame on the terminal and the thread echoing keys into it, until ``hand_over``."""

    def __init__(self, keys: int, screen: int, width: int) -> None:
        self._keys, self._screen, self._width = keys, screen, width
        self._state = Echoed()
        self._wake_read, self._wake_write = os.pipe()
        self._reader = threading.Thread(target=self._read, name="tau-early-frame", daemon=True)
        self._shown = True
        self._rows: list[str] = []
        self._stop_signal: Any = None  # the SIGTSTP handler before ours, while ours is set

    @classmethod
    def show(cls, keys: int, screen: int, cwd: str, home: str) -> EarlyFrame | None:
        """Draw the frame on ``screen`` (a terminal's fd) and echo what ``keys`` (the terminal's
        input, already delivering keys as typed) delivers; None when the terminal is too
        narrow for the frame or cannot be written to."""
        try:
            width = os.get_terminal_size(screen).columns
        except OSError:
            return None
        if width < MIN_WIDTH:
            return None
        frame = cls(keys, screen, width)
        frame._rows = frame_rows(width, cwd, home)
        if not frame._draw():
            frame._close()
            return None
        frame._reader.start()
        if signal.getsignal(signal.SIGTSTP) == signal.SIG_DFL:  # a shell with job control
            frame._stop_signal = signal.signal(signal.SIGTSTP, frame._suspend)
        return frame

    def _draw(self) -> bool:
        """The frame from the start of the cursor's line (the app's region starts there), the
        text read so far in it; the cursor left after the text, one row down from the top."""
        rows = [*self._rows]
        rows[TEXT_ROW], column = box_row(self._state.text, self._width)
        up = FRAME_ROWS - 1 - TEXT_ROW
        return self._write("\r" + "\r\n".join(rows) + f"\x1b[{up}A\x1b[{column + 1}G")

    def _suspend(self, signum: int, frame: object) -> None:
        """Ctrl+Z before the app runs: the frame goes, the shell gets the terminal; after ``fg``
        the keys' mode and the frame come back (the app does the same once it runs)."""
        self._write(f"\x1b[{TEXT_ROW}A\r\x1b[J")
        try:
            modes: list[Any] | None = termios.tcgetattr(self._keys)
        except termios.error:
            modes = None
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stopped here until ``fg``
        signal.signal(signal.SIGTSTP, self._suspend)
        if modes is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self._keys, termios.TCSANOW, modes)
        self._draw()

    def _write(self, text: str) -> bool:
        data = text.encode("utf-8")
        try:
            while data:
                data = data[os.write(self._screen, data) :]
        except OSError:
            return False
        return True

    def _read(self) -> None:
        while not self._state.stopped:
            try:
                ready = select.select([self._keys, self._wake_read], [], [])[0]
                if self._wake_read in ready:
                    return
                chunk = os.read(self._keys, 4096)
            except OSError:
                return
            if not chunk:
                return
            before = self._state.text
            self._state = echo(self._state, chunk)
            if self._state.text != before:
                row, column = box_row(self._state.text, self._width)
                self._write(f"\r{row}\x1b[{column + 1}G")

    def hand_over(self, *, erase: bool = False) -> Echoed:
        """Stop echoing and put the cursor at the box's top-left corner, where the app's inline
        region starts: its first frame is drawn over this one, row for row, so the frame stays
        until then (the cursor hidden, as the app keeps it). With ``erase`` (a start that ends
        before the app runs) the frame is cleared instead. Returns what was read."""
        if not self._shown:
            return Echoed()
        self._shown = False
        if self._stop_signal is not None:
            signal.signal(signal.SIGTSTP, self._stop_signal)
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"x")
        self._reader.join()
        self._close()
        self._write(f"\x1b[{TEXT_ROW}A\r" + ("\x1b[J" if erase else "\x1b[?25l"))
        return self._state

    def show_cursor(self) -> None:
        """The terminal's cursor shown again (``hand_over`` hid it for the app, which shows it when
        it stops; this is for a start that failed between the two)."""
        self._write("\x1b[?25h")

    def _close(self) -> None:
        for fd in (self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)


__all__ = ["PLACEHOLDER", "EarlyFrame", "Echoed", "box_row", "echo", "frame_rows"]
