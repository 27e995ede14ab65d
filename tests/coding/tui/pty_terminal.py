"""A program on a pseudo-terminal, seen as a terminal sees it: every byte it writes, raw.

tmux interprets what a program writes (and drops the graphics protocols it does not pass
through), so the tests that check the escape sequences themselves run ``tau`` here instead: a
real subprocess whose controlling terminal is the pty, sized like a window, with the
environment of the terminal it should take itself to be running in.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence
from pathlib import Path


class PtyTerminal:
    """``argv`` running on a new pty ``columns`` by ``rows``; ``output`` is all it wrote so far."""

    def __init__(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: Path, columns: int = 100, rows: int = 30
    ) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

        def own_terminal() -> None:  # in the child: a session of its own, the pty its terminal
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(env),
            cwd=cwd,
            preexec_fn=own_terminal,
        )
        os.close(slave)
        self.output = bytearray()

    def _read(self, timeout: float) -> bool:
        """Read what is there within ``timeout``; False once the program closed the terminal."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:  # EIO: every process on the pty has exited
            return False
        self.output += data
        return bool(data)

    def wait_for(self, text: bytes, timeout: float = 30.0) -> bytes:
        """All output up to now, once ``text`` is in it."""
        return self.wait_match(re.escape(text), timeout)

    def wait_match(self, pattern: bytes, timeout: float = 30.0) -> bytes:
        """All output up to now, once the regular expression ``pattern`` matches some of it."""
        deadline = time.monotonic() + timeout
        while re.search(pattern, self.output, re.S) is None:
            if time.monotonic() > deadline or not self._read(0.1):
                raise AssertionError(
                    f"{pattern!r} never came; the last output was {bytes(self.output[-2000:])!r}"
                )
        return bytes(self.output)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self, keys: bytes = b"\x03\x03", timeout: float = 15.0) -> bytes:
        """Send ``keys`` (Ctrl+C twice: quit), read until the program exits, and return all it wrote."""
        try:
            self.write(keys)
            deadline = time.monotonic() + timeout
            while self.process.poll() is None and time.monotonic() < deadline:
                self._read(0.1)
            while select.select([self.master], [], [], 0.05)[0] and self._read(0):
                pass  # what it wrote before exiting
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait(10)
            os.close(self.master)
        return bytes(self.output)
