"""``tau.exec``: run a program (no shell) and collect what it printed.

The program runs in the session's working directory unless told otherwise, in its own
process group: on time-out the whole group is killed and ``killed`` is True. Given a sandbox
policy (the one the model's bash runs under, see docs/permissions.md) it runs confined, as
bash does (``sandboxed`` says whether it was); where the sandbox cannot start,
``sandbox.required`` decides as for bash (refused: code 126 and the reason on stderr). A
program that cannot be started is an ``ExecResult`` with code 127 and the reason on stderr,
never an exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tau_coding.sandbox.policy import SandboxPolicy


@dataclass(frozen=True, slots=True)
class ExecResult:
    stdout: str
    stderr: str
    code: int
    killed: bool = False
    sandboxed: bool = False


async def run_program(
    command: str,
    args: Sequence[str],
    cwd: Path,
    timeout: float | None = None,
    sandbox: SandboxPolicy | None = None,
) -> ExecResult:
    """Run ``command args...`` and wait for it (at most ``timeout`` seconds)."""
    argv = [command, *args]
    confined = False
    notice = ""
    if sandbox is not None:
        from tau_coding.sandbox.launch import plan_launch

        launch = plan_launch(argv, cwd, sandbox)
        if launch.argv is None:
            return ExecResult("", launch.notice or "refused: the sandbox cannot start", 126)
        argv, confined, notice = launch.argv, launch.confined, launch.notice or ""
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # its own process group: a time-out kills its children too
        )
    except OSError as exc:
        return ExecResult("", f"{command}: {exc.strerror or exc}", 127)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        _kill_group(process.pid)
        out, err = await process.communicate()
        return ExecResult(_text(out), _text(err), process.returncode or -9, True, confined)
    stderr = _text(err) + (f"\n{notice}" if notice else "")
    return ExecResult(_text(out), stderr, process.returncode or 0, sandboxed=confined)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
