"""What a batch shows a person: a progress bar while it runs (only on a terminal) and a summary
table at the end (rich)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from tau_coding.batch.results import STATUSES, TaskResult


class ProgressView:
    """A rich progress bar on ``stream`` when it is a terminal; does nothing otherwise."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self._progress: Progress | None = None
        if stream.isatty():
            self._progress = Progress(
                TextColumn("tau batch"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[running]} running, {task.fields[failed]} not done"),
                TimeElapsedColumn(),
                console=Console(file=stream),
                transient=True,
            )
            self._bar = self._progress.add_task("tasks", total=total, running=0, failed=0)
        self._running = 0
        self._failed = 0

    def __enter__(self) -> ProgressView:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def started(self) -> None:
        self._running += 1
        self._update(0)

    def finished(self, result: TaskResult) -> None:
        self._running -= 1
        self._failed += result.status != "done"
        self._update(1)

    def _update(self, advance: int) -> None:
        if self._progress is not None:
            self._progress.update(self._bar, advance=advance, running=self._running, failed=self._failed)


def summary_table(results: Iterable[TaskResult], skipped: int) -> Table:
    """One row per status: tasks, checks passed, turns, tokens, cost, wall time."""
    table = Table(title="tau batch")
    for column in ("status", "tasks", "passed", "turns", "tokens", "cost", "wall time"):
        table.add_column(column, justify="left" if column == "status" else "right")
    rows: dict[str, list[TaskResult]] = {status: [] for status in STATUSES}
    for result in results:
        rows[result.status].append(result)
    counts = Counter({status: len(items) for status, items in rows.items()})
    for status in STATUSES:
        items = rows[status]
        if not items:
            continue
        table.add_row(
            status,
            str(counts[status]),
            str(sum(1 for r in items if r.passed)),
            str(sum(r.turns for r in items)),
            str(sum(r.tokens.total for r in items)),
            f"${sum(r.cost for r in items):.4f}",
            f"{sum(r.wall_time for r in items):.1f}s",
        )
    if skipped:
        table.caption = f"{skipped} task(s) already had a result and were skipped"
    return table


def print_summary(out: TextIO, results: Iterable[TaskResult], skipped: int) -> None:
    Console(file=out, width=100).print(summary_table(results, skipped))
