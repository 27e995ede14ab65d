"""``gc_paused``: run a bulk load with the cyclic garbage collector paused.

Loading a long session allocates hundreds of thousands of small objects and no reference
cycles. Most of them are never tracked by the collector at all: entries, messages and
content blocks are msgspec Structs declared ``gc=False``, and strings, numbers and dicts of
plain values are not containers it watches. What it does track are the lists inside them (a
message's content): about one per message, with nothing in them that it follows further. A
pass over those is cheap (about 3 ms for the 67,000 lists of a 100,000-entry session), but
a pass that starts while they are being made would scan the half-built history again and
again, so the load runs with the collector off and turns it back on as it was.

Nothing is frozen (``gc.freeze``) here: a freeze takes every object alive in the process, not
only the session's (a TUI's views with it, which would then never be collected once they
become garbage). With the bulk untracked there is no need for one.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


__all__ = ["gc_paused"]
