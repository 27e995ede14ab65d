"""The cyclic garbage collector, kept off what does not need it: start-up, and a streamed reply.

Start-up (the imports, the dataclass code table, settings, the catalogue, the session) makes
some hundred thousand objects that live until the process ends. The collector's passes over
them found next to nothing and, with the passes the interpreter runs over the same objects at
exit, cost about a tenth of a one-answer ``tau -p`` run (callgrind: 75 M of 700 M instructions).
``pause`` turns the collector off as ``tau`` starts; ``resume`` moves everything alive to the
permanent generation (``gc.freeze``), so neither later passes nor the ones at exit scan it
again, and turns the collector back on for the run itself, whose turns make the garbage it is
there for. A command that never calls ``resume`` (a listing, an export: one pass over
something, then exit) simply runs without the collector.

``settled_heap`` is for a mode's run (print, JSON, RPC). Measured on a 100,000-delta reply, the
collector cost ~1.4 µs per delta, a third of the per-delta budget: a network read carries up to
a few thousand deltas whose events (the decoded SSE event, the canonical delta, the
``message_update``) live until the read is written, a few thousand container objects that die
together a moment later. With the default young generation of 700 every read triggered several
passes that found nothing to free and promoted the survivors, which made later passes bigger. A
young generation of ``YOUNG`` holds a whole read's events, so they die before any pass sees them.

The price of a freeze: a frozen object is still freed by reference counting when its last
reference goes, but one caught in a reference cycle is never collected. Start-up's objects live
as long as the process anyway; what may stay behind is the first session's cyclic garbage when
an RPC client replaces that session. A session read later (a switch, a fork) freezes nothing:
its entries and messages are never tracked at all (``tau_agent/session/bulk.py``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 20_000  # container objects allocated (net) before a young-generation pass


def pause() -> None:
    """Turn the collector off until ``resume``."""
    gc.disable()


def resume() -> None:
    """Freeze what is alive now and turn the collector on: call when start-up is done."""
    gc.freeze()
    gc.enable()


@contextmanager
def settled_heap() -> Iterator[None]:
    """Freeze what exists now and widen the young generation until the block ends. On leaving,
    the thresholds are what they were; the freeze is not undone; whether the collector is
    enabled is left as it was."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(YOUNG, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


__all__ = ["YOUNG", "pause", "resume", "settled_heap"]
