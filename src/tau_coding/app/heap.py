"""Heap hygiene for long sessions: memory that stays flat over thousands of model turns.

Every model request repeats the whole conversation, so its body grows with the session
(about 600 KB after 1,000 small tool turns) and is freed as soon as it is sent. Two habits
of glibc's allocator turn that garbage into resident memory that is never given back:

* Its mmap threshold is dynamic: a freed mmapped block raises it to that block's size, so
  every later body (a little larger each turn) comes from the brk heap instead, where the
  freed bodies leave ever larger holes (+8 MiB over a 1,000-turn soak).
* Free space inside the heap (below its top) is kept resident; only ``malloc_trim`` hands
  its pages back. Medium-sized garbage of each turn (lists of the history, request
  buffers) leaves such space behind (+4 MiB over the same soak).

So the CLI's modes fix the threshold at glibc's own default (128 KiB: large blocks are
always mmapped and unmapped when freed) and trim the heap as each turn starts (tens of
microseconds against a turn's milliseconds). What a caller may rely on: both are no-ops
off glibc, and ``MALLOC_MMAP_THRESHOLD_`` in the environment (the user's own tuning) is
left alone. Python's own object memory (pymalloc) is not touched: it only grows with live
data. ``bench/soak.py`` measures the effect; docs/performance.md has the numbers.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from tau_agent.events import TurnStartEvent
from tau_coding.session.events import SessionEvent

if TYPE_CHECKING:
    from tau_coding.session.coding_session import CodingSession

MMAP_THRESHOLD = 128 * 1024
_M_MMAP_THRESHOLD = -3  # mallopt parameter number, from glibc's malloc.h


@cache
def _glibc() -> Any | None:
    """The C library when it is glibc (the process's own, already loaded), else None."""
    if sys.platform != "linux":
        return None
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")
    except (ValueError, OSError):
        return None
    if not version or not version.startswith("glibc"):
        return None
    import ctypes

    return ctypes.CDLL(None)


@cache
def fix_mmap_threshold() -> bool:
    """Keep large blocks mmapped for good (see the module docstring); True if applied.
    Done once per process; left alone when the environment sets the threshold."""
    libc = _glibc()
    if libc is None or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def release_free_memory() -> None:
    """Give the pages of free heap space back to the system (``malloc_trim``; glibc only)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def trim_after_turns(release: Callable[[], None] = release_free_memory) -> Callable[[SessionEvent], None]:
    """A session listener that calls ``release`` as every turn starts (before its request is built)."""

    def listener(event: SessionEvent) -> None:
        if isinstance(event, TurnStartEvent):
            release()

    return listener


def keep_heap_compact(session: CodingSession) -> None:
    """Both habits for ``session``'s process: the threshold fixed, the heap trimmed per turn."""
    fix_mmap_threshold()
    session.subscribe(trim_after_turns())
