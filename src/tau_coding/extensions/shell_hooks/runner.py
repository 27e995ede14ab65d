"""Running one hook command: JSON on stdin, stdout and stderr back, within its timeout.

The command runs through ``bash -c`` (``sh -c`` where there is no bash) in the project
directory, with ``CLAUDE_PROJECT_DIR`` and ``TAU_PROJECT_DIR`` set to it, in a process group
of its own so a timeout kills everything it started. Running never raises: a command that
cannot start or runs out of time is a ``HookRun`` with ``failure`` set.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_OUTPUT = 1024 * 1024  # what a hook may say; more is cut


@dataclass(frozen=True, slots=True)
class HookRun:
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    failure: str | None = None  # why there is no exit code (timeout, could not start)


def _argv(command: str) -> list[str]:
    shell = shutil.which("bash") or "/bin/sh"
    return [shell, "-c", command]


def _env(project: Path, extra: Mapping[str, str] | None) -> dict[str, str]:
    env = dict(os.environ)
    env["CLAUDE_PROJECT_DIR"] = env["TAU_PROJECT_DIR"] = str(project)
    if extra:
        env.update(extra)
    return env


def _decode(data: bytes) -> str:
    return data[:MAX_OUTPUT].decode("utf-8", errors="replace")


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def run_hook(
    command: str,
    payload: Mapping[str, Any],
    project: Path,
    timeout: float,
    env: Mapping[str, str] | None = None,
) -> HookRun:
    """Run ``command`` with ``payload`` as JSON on stdin (from async code)."""
    data = json.dumps(payload).encode()
    try:
        process = await asyncio.create_subprocess_exec(
            *_argv(command),
            cwd=project,
            env=_env(project, env),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return HookRun(None, failure=f"could not start: {exc}")
    try:
        out, err = await asyncio.wait_for(process.communicate(data), timeout)
    except TimeoutError:
        _kill(process.pid)
        await process.wait()
        return HookRun(None, failure=f"timed out after {timeout:g}s")
    except BaseException:
        _kill(process.pid)
        await process.wait()
        raise
    return HookRun(process.returncode, _decode(out), _decode(err))


def run_hook_sync(
    command: str,
    payload: Mapping[str, Any],
    project: Path,
    timeout: float,
    env: Mapping[str, str] | None = None,
) -> HookRun:
    """The same from synchronous code (SessionEnd runs when no event loop is left)."""
    try:
        process = subprocess.Popen(
            _argv(command),
            cwd=project,
            env=_env(project, env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return HookRun(None, failure=f"could not start: {exc}")
    try:
        out, err = process.communicate(json.dumps(payload).encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process.pid)
        process.communicate()
        return HookRun(None, failure=f"timed out after {timeout:g}s")
    return HookRun(process.returncode, _decode(out), _decode(err))
