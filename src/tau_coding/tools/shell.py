"""Which shell runs commands, and how a whole command tree is stopped."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal


def find_shell(shell_path: str | None) -> str:
    """The configured shell if given, else bash (``/bin/bash`` or on PATH), else ``sh``.

    Raises FileNotFoundError when a configured shell does not exist.
    """
    if shell_path:
        found = shutil.which(shell_path) if os.sep not in shell_path else shell_path
        if found is None or not os.access(found, os.X_OK):
            raise FileNotFoundError(f"the configured shell {shell_path} does not exist or is not executable")
        return found
    if os.access("/bin/bash", os.X_OK):
        return "/bin/bash"
    return shutil.which("bash") or shutil.which("sh") or "/bin/sh"


def kill_process_group(pgid: int) -> None:
    """SIGKILL every process of the group (the command and everything it started)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
