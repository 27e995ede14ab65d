"""The cyclic garbage collector is off while a run starts, and set aside what start-up made.

Start-up (the imports, the dataclass code table, settings, the catalogue, the session) makes
some hundred thousand objects that live until the process ends. The collector's passes over
them found next to nothing and, with the passes the interpreter runs over the same objects at
exit, cost about a tenth of a one-answer ``tau -p`` run (callgrind: 75 M of 700 M instructions).

``pause`` turns the collector off; ``resume`` moves everything alive to the permanent generation
(``gc.freeze``), so neither later passes nor the ones at exit scan it again, and turns the
collector back on for the run itself, whose turns make the garbage it is there for. Reference
counting still frees start-up's objects when they go; only a reference cycle that was already
garbage when ``resume`` ran is never collected. A command that never calls ``resume`` (a listing,
an export: one pass over something, then exit) simply runs without the collector.
"""

from __future__ import annotations

import gc


def pause() -> None:
    """Turn the collector off until ``resume``."""
    gc.disable()


def resume() -> None:
    """Freeze what is alive now and turn the collector on: call when start-up is done."""
    gc.freeze()
    gc.enable()
