"""Leaving a finished print-mode process without freeing its heap, as many CLIs do.

When ``tau -p`` has printed its answer and closed its session, what is left for the
interpreter is to free every object one by one: after resuming a 100,000-entry session that is
the entries, the converted history and the modules, tens of milliseconds of CPU that change
nothing on disk or on screen. ``allow`` says that point was reached; ``leave`` then ends the
process at once (``os._exit``) after doing what a normal exit would do that matters outside
the process: the ``atexit`` hooks (tracing's exporter, the dataclass code table, coverage's
data file, logging's handlers) and flushing stdout and stderr.

``leave`` declines (returns, and the process exits the usual way) unless ``allow`` was called,
while a thread other than the main one that Python would wait for is alive, under a profiler or
tracer (``python -m cProfile`` writes its report after the program returns), and when stdout or
stderr cannot be flushed (a closed pipe: the usual exit reports it as it always did). Only the
``tau`` command calls ``leave`` (``app/cli.main`` run as the program), never code that called
``main`` in-process.
"""

from __future__ import annotations

import atexit
import os
import sys

_ALLOWED: list[bool] = []


def allow() -> None:
    """The run's output is written and its files are closed: nothing in the heap still matters."""
    _ALLOWED.append(True)


def leave(code: int) -> None:
    """End the process now with ``code`` if ``allow`` was called and nothing would be lost
    (see the module docstring); else return."""
    if not _ALLOWED or sys.getprofile() is not None or sys.gettrace() is not None:
        return  # (a profiler or tracer, say cProfile or coverage, writes its report at the usual exit)
    import threading

    main = threading.main_thread()
    if any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate()):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    atexit._run_exitfuncs()  # what the interpreter runs first at exit (they may write too)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)
