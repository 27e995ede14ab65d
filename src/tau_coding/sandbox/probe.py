"""Whether the sandbox can start here: found once per process and per program, then remembered.

On Linux the probe runs ``bwrap`` with the isolation Tau uses around ``true``: it fails where
bwrap is missing, where user namespaces are off, or inside a container that forbids them. On
macOS it runs ``sandbox-exec`` with a trivial profile. Anywhere else there is no sandbox.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

from tau_coding.sandbox.bwrap import ISOLATION
from tau_coding.sandbox.seatbelt import SANDBOX_EXEC

PROBE_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class Availability:
    """``program``: the sandbox program to run (None: none can start, ``reason`` says why)."""

    kind: str  # "bwrap" | "sandbox-exec" | "none"
    program: str | None
    reason: str = ""


_CACHE: dict[tuple[str, str], Availability] = {}


def sandbox_availability(path: str | None = None, platform: str = sys.platform) -> Availability:
    """Whether and how commands can be confined (``path``: the PATH to search; None: the process's).

    Remembered per platform and PATH, so the probe runs once in a process.
    """
    path = os.environ.get("PATH", os.defpath) if path is None else path
    key = (platform, path)
    if key not in _CACHE:
        _CACHE[key] = _probe(path, platform)
    return _CACHE[key]


def _probe(path: str, platform: str) -> Availability:
    if platform == "darwin":
        if not shutil.which(SANDBOX_EXEC):
            return Availability("none", None, f"{SANDBOX_EXEC} not found")
        why = _runs([SANDBOX_EXEC, "-p", "(version 1)(allow default)", "/usr/bin/true"])
        return Availability("sandbox-exec", SANDBOX_EXEC) if why is None else Availability("none", None, why)
    if not platform.startswith("linux"):
        return Availability("none", None, f"no sandbox on {platform}")
    bwrap = shutil.which("bwrap", path=path)
    if bwrap is None:
        return Availability("none", None, "bwrap not found on PATH (install the bubblewrap package)")
    true = shutil.which("true", path=path) or "/bin/true"
    argv = [
        bwrap,
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        *ISOLATION,
        "--unshare-net",
        true,
    ]
    why = _runs(argv)
    return (
        Availability("bwrap", bwrap)
        if why is None
        else Availability("none", None, f"bwrap cannot start: {why}")
    )


def _runs(argv: list[str]) -> str | None:
    """None if ``argv`` exits 0, else one line saying why not."""
    try:
        done = subprocess.run(argv, capture_output=True, timeout=PROBE_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {done.returncode}"
