"""The ``tau.extensions`` entry-point group, and a cheap scan for whether any package declares it."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

ENTRY_POINT_GROUP = "tau.extensions"


def may_have_entry_points(path: Sequence[str] | None = None) -> bool:
    """Whether any installed distribution's entry_points.txt names the group (a cheap text scan).

    ``importlib.metadata`` costs ~20 ms to import (email, zipfile, csv); most runs have no
    extension packages, so they are spared it.
    """
    marker = f"[{ENTRY_POINT_GROUP}]"
    for directory in sys.path if path is None else path:
        try:
            children = os.scandir(directory or ".")
        except OSError:
            continue
        with children:
            for child in children:
                if not child.name.endswith((".dist-info", ".egg-info")):
                    continue
                try:
                    with open(os.path.join(child.path, "entry_points.txt"), encoding="utf-8") as handle:
                        if marker in handle.read():
                            return True
                except OSError:
                    continue
    return False
