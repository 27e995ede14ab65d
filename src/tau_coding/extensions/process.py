"""``tau.exec``: run a program (no shell) and collect what it printed.

The program runs in the session's working directory unless told otherwise; on time-out it is
killed and ``killed`` is True. A program that cannot be started is an ``ExecResult`` with code
127 and the reason on stderr, never an exception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ExecResult:
    stdout: str
    stderr: str
    code: int
    killed: bool = False


async def run_program(
    command: str, args: Sequence[str], cwd: Path, timeout: float | None = None
) -> ExecResult:
    """Run ``command args...`` and wait for it (at most ``timeout`` seconds)."""
    try:
        process = await asyncio.create_subprocess_exec(
            command,
            *args,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as exc:
        return ExecResult("", f"{command}: {exc.strerror or exc}", 127)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        out, err = await process.communicate()
        return ExecResult(_text(out), _text(err), process.returncode or -9, killed=True)
    return ExecResult(_text(out), _text(err), process.returncode or 0)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
