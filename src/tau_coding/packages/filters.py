"""Pi's package filters: which of a package's resources of one kind are active.

A filter is the list under a kind's key in the object form of a ``packages`` entry
(``{"source": ..., "extensions": [...]}``). No list: everything the manifest offers. ``[]``:
nothing. ``glob`` keeps matches (when any plain glob is given, only matches), ``!glob`` drops
matches, ``+path`` keeps that exact path even when the globs would not, ``-path`` drops it.
Paths are relative to the package root, with ``/``. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatchcase


def select(offered: Sequence[str], patterns: Sequence[str] | None, existing: Sequence[str] = ()) -> list[str]:
    """The relative paths of ``offered`` the filter keeps, in order; ``+path`` may add one of
    ``existing`` (a file of the package the manifest did not offer)."""
    if patterns is None:
        return list(offered)
    includes = [p for p in patterns if p and p[0] not in "!+-"]
    excludes = [p[1:] for p in patterns if p.startswith("!")]
    forced_in = [_norm(p[1:]) for p in patterns if p.startswith("+")]
    forced_out = {_norm(p[1:]) for p in patterns if p.startswith("-")}
    kept = []
    for path in offered:
        wanted = any(fnmatchcase(path, _norm(g)) for g in includes) if includes else False
        if wanted and any(fnmatchcase(path, _norm(g)) for g in excludes):
            wanted = False
        if path in forced_in:
            wanted = True
        if wanted and path not in forced_out:
            kept.append(path)
    extra = [
        p for p in forced_in if p not in kept and p not in forced_out and (p in existing or p in offered)
    ]
    return kept + extra


def _norm(path: str) -> str:
    return path.strip().removeprefix("./").rstrip("/")
