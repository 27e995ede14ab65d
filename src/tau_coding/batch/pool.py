"""The local backend: at most ``workers`` ``tau`` processes at once, on asyncio.

No extra dependency; the process is the isolation. Twice as many loops as workers take tasks,
and a semaphore lets ``workers`` of them run an agent at a time: while those run, the others
make the next working copies or take the diffs of finished ones, so an agent slot never waits
for bookkeeping. A task whose process is killed from outside is tried again (``max_retries``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

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
    """Run every task; ``on_result`` is called as each one finishes, in the order they finish, on
    one writer thread (it fsyncs: the event loop must not wait for the disk while agents end)."""
    queue = iter(tasks)
    agents = asyncio.Semaphore(max(1, workers))
    running = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="tau-batch-results") as writer:

        async def loop() -> None:
            for task in queue:  # one shared iterator: each task is taken by exactly one loop
                on_start(task)
                result = await run_with_retries(task, config, gate, max_retries, slot=agents)
                await running.run_in_executor(writer, on_result, result)

        await asyncio.gather(*(loop() for _ in range(2 * max(1, workers))))
