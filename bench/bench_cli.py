"""Whole-process costs of the tau command: start-up, as a user feels it."""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _median_ms(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def tau_executable() -> list[str]:
    """The tau command; with TAU_BENCH_SRC set, the tau of that source tree (bench/compare)."""
    src = os.environ.get("TAU_BENCH_SRC")
    if src:
        start = f"import sys, runpy; sys.path.insert(0, {src!r}); runpy.run_module('tau_coding', run_name='__main__')"
        return [sys.executable, "-c", start]
    script = Path(sys.executable).with_name("tau")
    if script.exists():
        return [str(script)]
    found = shutil.which("tau")
    return [found] if found else [sys.executable, "-m", "tau_coding"]


def version_ms(runs: int = 20) -> float:
    """Median wall time of ``tau --version``."""
    return _median_ms([*tau_executable(), "--version"], runs)


def bare_python_ms(runs: int = 20) -> float:
    """Median wall time of ``python -c pass``: the floor ``tau --version`` is compared with."""
    return _median_ms([sys.executable, "-c", "pass"], runs)


def list_all_ms(runs: int = 20) -> float:
    """Median wall time of ``tau --list-models --all``: the whole catalogue printed."""
    return _median_ms([*tau_executable(), "--list-models", "--all"], runs)


def list_all_cpu_ms(runs: int = 20) -> float:
    """Least CPU time (user + system) of ``tau --list-models --all`` over ``runs``: on a loaded
    machine the quietest run is the truest measure of the work itself."""
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [*tau_executable(), "--list-models", "--all"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, spent * 1000)
    return best


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    runs = 3 if smoke else 20
    return [
        ("cli: python -c pass", lambda: bare_python_ms(runs), "ms", None),
        ("cli: tau --version", lambda: version_ms(runs), "ms", 60.0),
        ("cli: tau --list-models --all", lambda: list_all_ms(runs), "ms", 50.0),
        ("cli: tau --list-models --all (cpu)", lambda: list_all_cpu_ms(runs), "ms", 50.0),
    ]
