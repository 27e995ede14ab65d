"""Checkpoints: snapshot and restore of a generated project (issue 23's targets).

The project is 10,000 files, 200 MB in all (20 KB each, in 100 folders), generated in a
temporary folder and made a git repository of its own. Measured: the first checkpoint (every
file hashed), a checkpoint after 3 files changed (the store's index re-reads only those), and a
restore that changes 100 files. Each value is CPU time, Tau's and git's together (user+sys of
this process and its children), the best of several runs: the machine is shared, so wall time
is noisy, and CPU is what the work costs. Wall times are printed alongside.

And what checkpoints add to a whole ``tau -p`` read-then-answer run (its checkpoint is taken
while the model is asked; nothing writes, so nothing waits for it): the median wall and CPU of
runs with checkpoints minus those with ``--no-checkpoints``, alternated in one project.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.bench_process import ANSWER, paired, read_then_answer, read_turn
from bench.tau_process import Measured, Project
from tau_coding.checkpoints.store import CheckpointStore

FIRST_TARGET_MS = 3000.0
INCREMENTAL_TARGET_MS = 150.0
RESTORE_TARGET_MS = 1000.0
RUN_EXTRA_WALL_TARGET_MS = 25.0  # "about nothing": within the noise of a whole run


def _without_checkpoints(p: Project) -> Measured:
    return p.run([read_turn(0), ANSWER], ["--no-checkpoints", "-p", "Which port?"])


_runs: dict[str, tuple[float, float]] = {}


def _run_extra(smoke: bool) -> dict[str, tuple[float, float]]:
    """(wall ms, cpu ms) that checkpoints add to a read-then-answer run: medians, on minus off."""
    if not _runs:
        on, off = paired(read_then_answer, _without_checkpoints, 3 if smoke else 9)
        for name, pick in (("wall", lambda m: m.wall_ms), ("cpu", lambda m: m.cpu_ms)):
            with_, without = statistics.median(map(pick, on)), statistics.median(map(pick, off))
            _runs[name] = (with_ - without, without)
            print(f"  tau -p read-then-answer {name}: {with_:.0f} ms with checkpoints, {without:.0f} without")
    return _runs


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _measure(work: Callable[[], object]) -> tuple[float, float]:
    """(cpu ms, wall ms) of one call."""
    cpu, wall = _cpu(), time.perf_counter()
    work()
    return (_cpu() - cpu) * 1e3, (time.perf_counter() - wall) * 1e3


def _generate(root: Path, files: int, size: int) -> list[Path]:
    paths = []
    block = os.urandom(size // 2).hex().encode()[:size]
    for i in range(files):
        folder = root / f"pkg{i % 100:03d}"
        folder.mkdir(exist_ok=True)
        path = folder / f"module_{i:05d}.py"
        path.write_bytes(f"# file {i}\n".encode() + block)
        paths.append(path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return paths


class _Project:
    def __init__(self, files: int, size: int) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="tau-bench-checkpoints-"))
        self.root = self.tmp / "project"
        self.root.mkdir()
        self.paths = _generate(self.root, files, size)
        self.store = CheckpointStore(self.root, self.tmp / "store")
        self.round = 0

    def touch(self, count: int) -> None:
        self.round += 1
        for path in self.paths[:count]:
            with path.open("ab") as f:
                f.write(f"# edit {self.round}\n".encode())

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


_results: dict[str, tuple[float, float]] = {}


def _run(smoke: bool) -> dict[str, tuple[float, float]]:
    if _results:
        return _results
    files, size = (1_000, 20_000) if smoke else (10_000, 20_000)
    project = _Project(files, size)
    try:
        _results["first"] = _measure(project.store.take)
        incremental = []
        for _ in range(5):
            project.touch(3)
            incremental.append(_measure(project.store.take))
        _results["incremental"] = min(incremental)
        restores = []
        for _ in range(3):
            base = project.store.take()
            project.touch(100)
            project.store.take()
            restores.append(_measure(lambda base=base: project.store.restore(base.id)))  # type: ignore[misc]
        _results["restore"] = min(restores)
    finally:
        project.close()
    for name, (cpu, wall) in _results.items():
        print(f"  checkpoints {name}: cpu {cpu:.0f} ms, wall {wall:.0f} ms")
    return _results


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    size = "1,000 files, 20 MB" if smoke else "10,000 files, 200 MB"
    return [
        (f"checkpoints: first, {size}", lambda: _run(smoke)["first"][0], "cpu ms", FIRST_TARGET_MS),
        (
            f"checkpoints: 3 changed, {size}",
            lambda: _run(smoke)["incremental"][0],
            "cpu ms",
            INCREMENTAL_TARGET_MS,
        ),
        (
            f"checkpoints: restore 100 changed, {size}",
            lambda: _run(smoke)["restore"][0],
            "cpu ms",
            RESTORE_TARGET_MS,
        ),
        (
            "checkpoints: extra wall of a tau -p read-then-answer",
            lambda: _run_extra(smoke)["wall"][0],
            "ms",
            RUN_EXTRA_WALL_TARGET_MS,
        ),
        (
            "checkpoints: extra CPU of a tau -p read-then-answer",
            lambda: _run_extra(smoke)["cpu"][0],
            "ms",
            None,
        ),
    ]
