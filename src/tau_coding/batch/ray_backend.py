"""The Ray backend: each task is a Ray task on ``ray.init()``'s cluster; an actor holds the
shared rate budget. Imported only for ``--backend ray``; Ray is the optional extra ``ray``.

Ray retries a task whose worker process died (``max_retries``); the agent process dies with
its worker, and the retry makes the working copy afresh. Results come back as the tasks finish
(``ray.wait``) and the driver alone writes the results file. On a cluster of several machines
the state folder (working copies, sessions) must be on a file system they share.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import ray

from tau_coding.batch.budget import Limits, RateBudget
from tau_coding.batch.execute import RunConfig, WorkerDied, folder_name, run_task
from tau_coding.batch.results import TaskResult, decode_result, encode_result
from tau_coding.batch.tasks import Task, decode_task, encode_task


@ray.remote(num_cpus=0)
class BudgetActor:
    """One ``RateBudget`` for the whole cluster."""

    def __init__(self, limits: Limits) -> None:
        self._budget = RateBudget(limits)

    def try_acquire(self, provider: str) -> float | None:
        return self._budget.try_acquire(provider, time.monotonic())

    def release(self, provider: str) -> None:
        self._budget.release(provider)

    def record(self, provider: str, tokens: int) -> None:
        self._budget.record(provider, tokens, time.monotonic())


class ActorGate:
    """The ``Gate`` a Ray task uses: every call goes to the budget actor."""

    def __init__(self, actor: Any) -> None:
        self._actor = actor

    async def acquire(self, provider: str) -> None:
        while (wait := await self._actor.try_acquire.remote(provider)) is not None:
            await asyncio.sleep(min(wait, 1.0))

    async def release(self, provider: str) -> None:
        await self._actor.release.remote(provider)

    async def record(self, provider: str, tokens: int) -> None:
        await self._actor.record.remote(provider, tokens)


def _next_attempt(config: RunConfig, task: Task) -> int:
    """Counts this task's starts on the shared state folder: Ray's own retries are invisible to
    the function it retries."""
    marker = config.state_dir / "attempts" / folder_name(task.id)
    marker.parent.mkdir(parents=True, exist_ok=True)
    try:
        attempt = int(marker.read_text() or "0") + 1
    except (FileNotFoundError, ValueError):
        attempt = 1
    marker.write_text(str(attempt))
    return attempt


def _run_remote(task_bytes: bytes, config: RunConfig, actor: Any) -> bytes:
    task = decode_task(task_bytes)
    attempt = _next_attempt(config, task)
    # WorkerDied (the agent was killed) propagates: Ray retries it like a dead worker.
    return encode_result(asyncio.run(run_task(task, config, ActorGate(actor), attempt=attempt)))


def run_ray(
    tasks: Sequence[Task],
    config: RunConfig,
    limits: Limits,
    *,
    address: str | None,
    in_flight: int,
    num_cpus: float,
    max_retries: int,
    on_start: Callable[[Task], None],
    on_result: Callable[[TaskResult], None],
) -> None:
    """Submit the tasks (at most ``in_flight`` at a time) and hand each result over as it lands."""
    if not ray.is_initialized():
        ray.init(address=address or os.environ.get("RAY_ADDRESS") or None, log_to_driver=False)
    actor = BudgetActor.remote(limits)  # type: ignore[attr-defined]
    remote = ray.remote(  # type: ignore[call-overload]
        num_cpus=num_cpus, max_retries=max_retries, retry_exceptions=[WorkerDied]
    )(_run_remote)
    queue: Iterator[Task] = iter(tasks)
    pending: dict[Any, Task] = {}

    def submit() -> None:
        task = next(queue, None)
        if task is not None:
            on_start(task)
            pending[remote.remote(encode_task(task), config, actor)] = task

    for _ in range(max(1, in_flight)):
        submit()
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                task = pending.pop(ref)
                try:
                    result = decode_result(ray.get(ref))
                except ray.exceptions.RayError as exc:
                    message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                    result = TaskResult(id=task.id, status="error", error=f"ray: {message}", meta=task.meta)
                on_result(result)
                submit()
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        ray.kill(actor)


__all__ = ["BudgetActor", "run_ray"]
