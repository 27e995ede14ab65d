"""Find and run the ``rg`` binary (shipped by the ``ripgrep`` PyPI package) for grep and find.

``rg`` is looked up in the settings, then on PATH, then beside the running Python (a virtual
environment's ``bin`` directory, which is not always on PATH). Output is read line by line
so a caller can stop early; stopping, cancellation or an error kills the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import sysconfig
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from pathlib import Path

from tau_agent.cancellation import CancellationToken

# Flags shared by grep and find: hidden files in, .git out, .gitignore honoured outside git too.
COMMON_FLAGS = ("--hidden", "--no-require-git", "--glob", "!.git", "--no-config")


def find_rg(explicit: str | None = None) -> str | None:
    """The path of an ``rg`` executable, or None when there is none."""
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else shutil.which(explicit)
    found = shutil.which("rg")
    if found:
        return found
    for directory in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        candidate = Path(directory) / "rg"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


@dataclass(slots=True)
class RgRun:
    """What a finished run left behind: its exit code and the start of its stderr."""

    returncode: int | None = None
    stderr: str = ""


async def rg_lines(
    rg: str, args: list[str], cwd: Path, signal: CancellationToken, run: RgRun
) -> AsyncGenerator[bytes, None]:
    """Yield rg's stdout lines (without newline); killing it when the caller stops early.

    Iterate inside ``contextlib.aclosing`` so stopping early cleans up at once, not at GC.
    """
    process = await asyncio.create_subprocess_exec(
        rg,
        *args,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        limit=64 * 1024 * 1024,
    )
    assert process.stdout is not None and process.stderr is not None
    unregister = signal.on_cancel(lambda: _kill(process))
    errors = asyncio.ensure_future(_drain(process.stderr))
    try:
        while line := await process.stdout.readline():
            yield line.rstrip(b"\n")
        run.returncode = await process.wait()
        run.stderr = (await errors).decode("utf-8", errors="replace").strip()[:2000]
    finally:
        unregister()
        if process.returncode is None:
            _kill(process)
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
        errors.cancel()
        transport = getattr(process, "_transport", None)  # no public close; see bash._close_pipes
        if transport is not None:
            transport.close()


async def _drain(stream: asyncio.StreamReader) -> bytes:
    """All of ``stream`` read (so rg never blocks on a full pipe), its first 64 KB kept."""
    kept = bytearray()
    while chunk := await stream.read(64 * 1024):
        if len(kept) < 64 * 1024:
            kept += chunk
    return bytes(kept)


def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
