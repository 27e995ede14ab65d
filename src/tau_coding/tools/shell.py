"""Which shell runs commands, and how a whole command tree is stopped.

Every command group Tau starts is kept in a process-wide set until it is reaped, so that an
exit by a signal (SIGTERM, SIGHUP: see ``tau_coding.app.exit_signals``) can kill them all at once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal


def command_env(scrub: frozenset[str]) -> dict[str, str] | None:
    """The environment for a command: Tau's own without the ``scrub`` names (None: unchanged)."""
    if not scrub:
        return None
    return {name: value for name, value in os.environ.items() if name not in scrub}


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


_LIVE_GROUPS: set[int] = set()


def track_process_group(pgid: int) -> None:
    """Remember a group Tau started, until ``forget_process_group``."""
    _LIVE_GROUPS.add(pgid)


def forget_process_group(pgid: int) -> None:
    _LIVE_GROUPS.discard(pgid)


def kill_all_process_groups() -> int:
    """SIGKILL every group still remembered (safe in a signal handler); returns how many."""
    groups = list(_LIVE_GROUPS)
    for pgid in groups:
        kill_process_group(pgid)
    return len(groups)


def kill_process_group(pgid: int) -> None:
    """SIGKILL every process of the group (the command and everything it started)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
