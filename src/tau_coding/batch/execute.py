"""Run one task: a fresh working copy, its own ``tau -p --mode json`` process, the limits, the
check, the diff, and a ``TaskResult``.

The process runs in its own process group (a timeout or a passed limit kills the group, the
agent's shell commands with it) and, on Linux, dies with the worker that started it, so a
killed runner or Ray worker leaves no agent running on a working copy that is about to be
made afresh. A process that dies of a signal the runner did not send is reported as
``WorkerDied``; the caller decides whether to try again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path

from tau_coding.batch import workspace
from tau_coding.batch.budget import Gate
from tau_coding.batch.monitor import RunTally
from tau_coding.batch.results import Status, TaskResult, Tokens
from tau_coding.batch.tasks import Task

_STREAM_LIMIT = 1 << 26  # one event line may carry a whole long reply


@dataclass(frozen=True, slots=True)
class RunConfig:
    """Where and how tasks run. ``state_dir`` holds ``work/<id>`` and ``sessions/<id>``."""

    state_dir: Path
    base: Path  # relative cwd/repo paths in tasks are taken from here
    tau_command: Sequence[str] = (sys.executable, "-m", "tau_coding")
    env: Mapping[str, str] | None = None
    trace_file: str | None = None
    keep_work: bool = False
    extra_args: Sequence[str] = field(default_factory=tuple)


class WorkerDied(Exception):
    """The agent process was killed by a signal the runner did not send."""


def folder_name(task_id: str) -> str:
    """A file-system-safe, collision-free folder name for a task id."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", task_id)[:80]
    if safe == task_id and safe not in (".", ".."):
        return safe
    return f"{safe}-{hashlib.sha1(task_id.encode()).hexdigest()[:8]}"


def tau_arguments(task: Task, session_dir: Path, config: RunConfig) -> list[str]:
    args = [*config.tau_command, "-p", "--mode", "json", "--session-dir", str(session_dir)]
    if task.model:
        args += ["--model", task.model]
    if task.tools is not None:
        args += ["--tools", ",".join(task.tools)] if task.tools else ["--no-tools"]
    if task.max_turns is not None:
        args += ["--max-turns", str(task.max_turns)]
    if config.trace_file:
        args += ["--trace-file", config.trace_file]
    return [*args, *config.extra_args]


@functools.cache
def _parent_death() -> tuple[tuple[str, ...], Callable[[], object] | None]:
    """How a child is made to die with the worker that started it (Linux): a command prefix,
    ``setpriv --pdeathsig KILL`` (util-linux), or else a call between fork and exec, which
    costs a full fork (about 15 ms more per task than the vfork the prefix allows)."""
    if sys.platform != "linux":
        return (), None
    setpriv = shutil.which("setpriv")
    if setpriv is not None:
        probe = subprocess.run([setpriv, "--help"], capture_output=True, text=True, check=False)
        if "--pdeathsig" in probe.stdout:
            return (setpriv, "--pdeathsig", "KILL", "--"), None
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl
    return (), lambda: prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _kill_group(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


@dataclass(slots=True)
class _Run:
    tally: RunTally = field(default_factory=RunTally)
    stopped: str | None = None  # why the runner stopped the process
    timed_out: bool = False
    code: int | None = None
    stderr: bytes = b""


async def _drive(task: Task, args: list[str], cwd: Path, config: RunConfig, gate: Gate) -> _Run:
    run = _Run()
    env = dict(config.env if config.env is not None else os.environ)
    env["TAU_BATCH_TASK_ID"] = task.id
    prefix, preexec = _parent_death()
    process = await asyncio.create_subprocess_exec(
        *prefix,
        *args,
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        preexec_fn=preexec,
        limit=_STREAM_LIMIT,
    )
    assert process.stdin and process.stdout and process.stderr
    process.stdin.write(task.prompt.encode())
    process.stdin.close()
    stderr_task = asyncio.ensure_future(process.stderr.read())

    async def read_events() -> None:
        assert process.stdout
        async for line in process.stdout:
            tokens = run.tally.feed(line)
            if tokens:
                await gate.record(task.provider, tokens)
                reason = run.tally.over_limit(task.max_tokens, task.max_cost)
                if reason is not None and run.stopped is None:
                    run.stopped = reason
                    _kill_group(process)
        await process.wait()

    try:
        await asyncio.wait_for(read_events(), task.timeout)
    except TimeoutError:
        run.timed_out = True
        _kill_group(process)
    finally:
        if process.returncode is None:
            _kill_group(process)
        run.code = await process.wait()
        run.stderr = await stderr_task
    return run


def _last_line(data: bytes) -> str:
    lines = [line for line in data.decode(errors="replace").splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


async def _check(command: str, cwd: Path, timeout: float | None) -> bool:
    process = await asyncio.create_subprocess_exec(
        "bash",
        "-c",
        command,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        return await asyncio.wait_for(process.wait(), timeout) == 0
    except TimeoutError:
        _kill_group(process)
        await process.wait()
        return False


def _session_file(session_dir: Path) -> str | None:
    files = sorted(session_dir.rglob("*.jsonl"))
    return str(files[0]) if files else None


async def run_task(
    task: Task,
    config: RunConfig,
    gate: Gate,
    *,
    attempt: int = 1,
    slot: AbstractAsyncContextManager[object] | None = None,
) -> TaskResult:
    """Run ``task`` once; every failure but ``WorkerDied`` becomes the result's status.

    Only the agent's process runs inside ``slot`` (the pool's count of agents at once): the
    working copy is made before it and the check and diff run after it, so a worker's slot
    goes to the next agent while this task's bookkeeping finishes."""
    started = time.monotonic()
    name = folder_name(task.id)
    work_dir = config.state_dir / "work" / name
    session_dir = config.state_dir / "sessions" / name

    def result(status: Status, **fields: object) -> TaskResult:
        return TaskResult(
            id=task.id,
            status=status,
            wall_time=round(time.monotonic() - started, 3),
            attempts=attempt,
            meta=task.meta,
            **fields,  # type: ignore[arg-type]
        )

    try:
        seeds = workspace.seeds_in(config.state_dir / "seeds")
        space = await asyncio.to_thread(
            seeds.prepare, work_dir, cwd=task.cwd, repo=task.repo, ref=task.ref, base=config.base
        )
    except (workspace.WorkspaceError, OSError) as exc:
        return result("error", error=f"working copy: {exc}")
    workspace.remove(session_dir)
    async with slot or contextlib.nullcontext():
        await gate.acquire(task.provider)
        try:
            run = await _drive(task, tau_arguments(task, session_dir, config), work_dir, config, gate)
        except OSError as exc:
            return result("error", error=f"could not start tau: {exc}")
        finally:
            await gate.release(task.provider)
    code = run.code or 0
    if code < 0 and not run.timed_out and run.stopped is None:
        raise WorkerDied(f"tau was killed by signal {-code}")
    tally = run.tally
    status: Status = "done"
    error: str | None = None
    if run.timed_out:
        status, error = "timeout", f"timed out after {task.timeout}s"
    elif run.stopped is not None:
        status, error = "failed", run.stopped
    elif code != 0:
        status = "failed"
        error = tally.error_message or _last_line(run.stderr) or f"tau exited with status {code}"
    passed: bool | None = None
    if task.check is not None and status != "timeout":
        passed = await _check(task.check, work_dir, task.timeout)
        if not passed and status == "done":
            status, error = "failed", "check failed"
    try:
        changes = await asyncio.to_thread(workspace.diff, space)
    except workspace.WorkspaceError as exc:
        changes, error = "", error or f"diff: {exc}"
    if not config.keep_work:
        await asyncio.to_thread(workspace.remove, work_dir)
    return result(
        status,
        passed=passed,
        turns=tally.turns,
        tokens=Tokens(tally.tokens_input, tally.tokens_output, tally.tokens_total),
        cost=round(tally.cost, 6),
        final_text=tally.final_text,
        session_file=_session_file(session_dir),
        diff=changes,
        error=error,
    )


async def run_with_retries(
    task: Task,
    config: RunConfig,
    gate: Gate,
    max_retries: int,
    slot: AbstractAsyncContextManager[object] | None = None,
) -> TaskResult:
    """``run_task``, again up to ``max_retries`` times while its process dies of a foreign signal;
    after that the task is an ``error``."""
    attempt = 1
    while True:
        try:
            return await run_task(task, config, gate, attempt=attempt, slot=slot)
        except WorkerDied as exc:
            if attempt > max_retries:
                return TaskResult(
                    id=task.id, status="error", error=str(exc), attempts=attempt, meta=task.meta
                )
            attempt += 1
