"""Opening a login's URL in the user's browser (the default ``open_url`` of a login)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping


def open_in_browser(url: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Open ``url`` in the desktop's browser when there is a desktop; False when not tried.
    Never a text-mode browser: it would take over the terminal the login prints to."""
    if environ.get("TAU_NO_BROWSER"):
        return False
    if sys.platform == "darwin":
        command = ["open", url]
    elif (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")) and shutil.which("xdg-open"):
        command = ["xdg-open", url]
    else:
        return False
    try:
        subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
    except OSError:
        return False
    return True
