"""The local backend: ``workers`` asyncio workers, each running one ``tau`` process at a time.

No extra dependency; the process is the isolation, so a worker is just a loop that takes the
next task. A task whose process is killed from outside is tried again (``max_retries``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from tau_coding.batch.budget import Gate
from tau_coding.batch.execute import RunConfig, run_with_retries
from tau_coding.batch.results import TaskResult
from tau_coding.batch.tasks import Task


async def run_pool(
    tasks: Iterable[Task],
    config: RunConfig,
    gate: Gate,
    *,
    workers: int,
    max_retries: int,
    on_start: Callable[[Task], None],
    on_result: Callable[[TaskResult], None],
) -> None:
    """Run every task; ``on_result`` is called (on the loop) as each one finishes."""
    queue = iter(tasks)

    async def worker() -> None:
        for task in queue:  # one shared iterator: each task is taken by exactly one worker
            on_start(task)
            on_result(await run_with_retries(task, config, gate, max_retries))

    await asyncio.gather(*(worker() for _ in range(max(1, workers))))
