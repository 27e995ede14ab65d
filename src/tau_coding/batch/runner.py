"""``tau batch``: read the tasks, skip those the results file already has, run the rest on a
backend, append each result the moment it lands, and summarise.

Killing the runner loses at most the tasks in flight: every finished task is already a whole,
fsynced line, and a rerun of the same command picks up from there.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TextIO

from tau_coding.batch.budget import AsyncGate, Limits
from tau_coding.batch.execute import RunConfig
from tau_coding.batch.results import ResultsFile, TaskResult, latest_statuses, read_results
from tau_coding.batch.tasks import Task, read_tasks

RETRYABLE = frozenset({"failed", "error", "timeout"})


@dataclass(frozen=True, slots=True)
class BatchOptions:
    tasks: Path
    out: Path
    workers: int = 4
    backend: Literal["local", "ray"] = "local"
    ray_address: str | None = None
    num_cpus: float = 1.0
    retry_failed: bool = False
    max_retries: int = 1
    limits: Limits = field(default_factory=Limits)
    trace_file: str | None = None
    keep_work: bool = False
    tau_command: Sequence[str] = (sys.executable, "-m", "tau_coding")
    env: Mapping[str, str] | None = None


def state_dir(out: Path) -> Path:
    """The folder beside the results file for working copies and sessions: ``RESULTS.d``."""
    return out.with_name(out.name.removesuffix(".jsonl") + ".d")


def to_run(tasks: Sequence[Task], statuses: Mapping[str, str], retry_failed: bool) -> list[Task]:
    """The tasks without a result, plus (when asked) those whose last result is not ``done``."""
    return [
        task for task in tasks if task.id not in statuses or (retry_failed and statuses[task.id] in RETRYABLE)
    ]


def _run_backend(
    options: BatchOptions,
    todo: list[Task],
    config: RunConfig,
    on_start: Callable[[Task], None],
    on_result: Callable[[TaskResult], None],
) -> None:
    if options.backend == "ray":
        from tau_coding.batch.ray_backend import run_ray

        run_ray(
            todo,
            config,
            options.limits,
            address=options.ray_address,
            in_flight=options.workers,
            num_cpus=options.num_cpus,
            max_retries=options.max_retries,
            on_start=on_start,
            on_result=on_result,
        )
        return
    from tau_coding.batch.pool import run_pool

    asyncio.run(
        run_pool(
            todo,
            config,
            AsyncGate(options.limits),
            workers=options.workers,
            max_retries=options.max_retries,
            on_start=on_start,
            on_result=on_result,
        )
    )


def run_batch(options: BatchOptions, out: TextIO, err: TextIO) -> int:
    """Run the batch; 0 when every task's last result is ``done`` and every line was a task."""
    from tau_coding.batch.report import ProgressView, print_summary

    try:
        tasks, problems = read_tasks(options.tasks)
    except OSError as exc:
        err.write(f"tau batch: cannot read {options.tasks}: {exc.strerror or exc}\n")
        return 2
    for problem in problems:
        err.write(f"tau batch: {problem.describe(str(options.tasks))}\n")
    statuses = latest_statuses(options.out, warn=lambda line: err.write(f"tau batch: {line}\n"))
    todo = to_run(tasks, statuses, options.retry_failed)
    config = RunConfig(
        state_dir=state_dir(options.out).resolve(),
        base=options.tasks.resolve().parent,
        tau_command=tuple(options.tau_command),
        env=options.env,
        trace_file=str(Path(options.trace_file).resolve()) if options.trace_file else None,
        keep_work=options.keep_work,
    )
    results = ResultsFile(options.out)
    try:
        with ProgressView(err, len(todo)) as progress:

            def on_result(result: TaskResult) -> None:
                results.append(result)
                progress.finished(result)

            _run_backend(options, todo, config, lambda task: progress.started(), on_result)
    finally:
        results.close()
        for scratch in ("seeds", "attempts"):  # per-run helpers (attempts: Ray's retry count)
            shutil.rmtree(config.state_dir / scratch, ignore_errors=True)
    ids = {task.id for task in tasks}
    final = [r for r in read_results(options.out).values() if r.id in ids]
    print_summary(out, final, skipped=len(tasks) - len(todo))
    all_done = len(final) == len(tasks) and all(r.status == "done" for r in final)
    return 0 if all_done and not problems else 1
