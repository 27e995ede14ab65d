"""Import httpx without its command-line interface.

httpx's ``__init__`` imports ``httpx._main`` (its ``httpx`` CLI) whenever click and rich are
installed, and Tau's TUI installs rich: that is 40-60 ms of a cold ``tau -p`` spent on a
program Tau never runs. Registering a stand-in for ``httpx._main`` first keeps the import
to the client. The stand-in is only registered when httpx has not been imported yet, and
calling it says what happened instead of failing obscurely.
"""

from __future__ import annotations

import sys
import types
from typing import Any


def _cli_unavailable(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("httpx's command-line interface is not loaded inside Tau")


def load_httpx() -> types.ModuleType:
    if "httpx" not in sys.modules and "httpx._main" not in sys.modules:
        stand_in = types.ModuleType("httpx._main")
        stand_in.main = _cli_unavailable  # type: ignore[attr-defined]
        sys.modules["httpx._main"] = stand_in
    import httpx

    return httpx
