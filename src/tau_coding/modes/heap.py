"""settled_heap: the cyclic garbage collector kept off a streamed reply's hot path while a mode runs.

Measured on a 100,000-delta reply (RPC mode, ``tau_coding`` started as the bench starts it),
the collector cost ~1.4 µs per delta, a third of the whole per-delta budget, for two reasons:

* Start-up leaves some hundred thousand objects (modules, classes, functions, the session)
  that live until the process ends. Each full pass walks all of them again, and during a
  streamed reply a full pass comes every ~30,000 deltas at ~30 ms. ``gc.freeze`` moves them to
  the permanent generation, which no pass visits; the TUI and the session loader do the same.
* A network read carries up to a few thousand deltas, and their events (the decoded SSE
  event, the canonical delta, the ``message_update``) live until the read is written: a few
  thousand container objects that die together a moment later. With the default young
  generation of 700, every read triggered several passes that found nothing to free and
  promoted the survivors to older generations, which made later passes bigger. A young
  generation of 20,000 holds a whole read's events, so they die before any pass sees them.

What a caller may rely on: on leaving the block the collector's thresholds are what they were;
the freeze is not undone; nothing else about the collector changes (it stays enabled or
disabled as it was). The price of the freeze, the one the session loader pays as well
(``tau_agent/session/bulk.py``): a frozen object is still freed by reference counting when
its last reference goes, but one caught in a reference cycle is never collected. Start-up's
objects live as long as the process anyway; what may stay behind is the first session's
cyclic garbage when an RPC client replaces that session.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 20_000  # container objects allocated (net) before a young-generation pass


@contextmanager
def settled_heap() -> Iterator[None]:
    """Freeze what exists now and widen the young generation until the block ends (module docstring)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(YOUNG, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


__all__ = ["YOUNG", "settled_heap"]
