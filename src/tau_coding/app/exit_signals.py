"""SIGTERM and SIGHUP end Tau the way Ctrl+C does, after killing the commands it started.

Without a handler either signal ends Python at once: no ``finally`` runs, so a running
``bash`` command (and everything it started) lives on, and the run's last entries are not
written. ``install`` makes both signals first SIGKILL every command group Tau started, then
interrupt like SIGINT: inside ``asyncio.run`` the main task is cancelled (the session records
the aborted run and is closed as usual); elsewhere KeyboardInterrupt is raised.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
SHELL_MODULE = "tau_coding.tools.shell"  # remembers the command groups Tau started


def _interrupt(signum: int, frame: FrameType | None) -> None:
    # Not imported: no command was started. (Importing the tools here would cost every start
    # their import, ~40 ms before the TUI's first paint, and in a signal handler could meet an
    # import in progress.)
    if (shell := sys.modules.get(SHELL_MODULE)) is not None:
        shell.kill_all_process_groups()
    on_interrupt = signal.getsignal(signal.SIGINT)
    if callable(on_interrupt) and on_interrupt is not signal.default_int_handler:
        on_interrupt(signal.SIGINT, frame)  # asyncio's: cancels the main task
        return
    raise KeyboardInterrupt


def install() -> None:
    """Handle SIGTERM and SIGHUP from now on (main thread only); an ignored signal stays ignored."""
    for signum in EXIT_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _interrupt)
