"""``tau batch``: the runner's own cost per task, how busy it keeps its workers, and resuming.

The agent is a stub (a shell script that reads the prompt, prints one reply's events and, when
asked, sleeps), so what is measured is the runner: the working copy (copy, ``git init``, the
starting tree), the process, the event fold, the check, the diff and the fsynced result line.

    python bench/bench_batch.py     the three numbers, full size
"""

from __future__ import annotations

import atexit
import io
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tau_coding.batch.results import ResultsFile, TaskResult, Tokens, latest_statuses
from tau_coding.batch.runner import BatchOptions, run_batch, to_run
from tau_coding.batch.tasks import read_tasks

STUB = """#!/bin/sh
cat > /dev/null
echo "start $(date +%s.%N)" >> "$STUB_LOG"
[ -n "$STUB_SLEEP" ] && sleep "$STUB_SLEEP"
echo '{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input":10,"output":2,"totalTokens":12,"cost":{"total":0.0}},"stopReason":"stop"}}'
echo '{"type":"turn_end","message":{"role":"assistant"}}'
echo "end $(date +%s.%N)" >> "$STUB_LOG"
"""


def _scratch() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="tau-bench-batch-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _setup(count: int, *, with_source: bool) -> tuple[Path, Path, Path]:
    folder = _scratch()
    stub = folder / "agent.sh"
    stub.write_text(STUB)
    source = folder / "src"
    source.mkdir()
    for n in range(10):
        (source / f"m{n}.py").write_text(f"def f{n}():\n    return {n}\n" * 20)
    lines = []
    for n in range(count):
        cwd = ', "cwd": "src"' if with_source else ""
        lines.append(f'{{"id": "t{n}", "prompt": "task {n}", "check": "true"{cwd}}}\n')
    (folder / "tasks.jsonl").write_text("".join(lines))
    return folder, stub, folder / "agent.log"


def _batch(folder: Path, stub: Path, log: Path, workers: int, sleep: str = "") -> float:
    env = {**os.environ, "STUB_LOG": str(log), "STUB_SLEEP": sleep}
    options = BatchOptions(
        tasks=folder / "tasks.jsonl",
        out=folder / "results.jsonl",
        workers=workers,
        tau_command=("sh", str(stub)),
        env=env,
    )
    started = time.perf_counter()
    code = run_batch(options, io.StringIO(), io.StringIO())
    elapsed = time.perf_counter() - started
    assert code == 0, "the stub batch failed"
    return elapsed


def _stub_alone(stub: Path, log: Path, count: int) -> tuple[float, float]:
    """Seconds and CPU seconds per run of the stub agent by itself (spawned, fed a prompt, waited for)."""
    env = {**os.environ, "STUB_LOG": str(log), "STUB_SLEEP": ""}
    cpu = _cpu()
    started = time.perf_counter()
    for _ in range(count):
        subprocess.run(["sh", str(stub)], input=b"task", env=env, stdout=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - started) / count, (_cpu() - cpu) / count


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def overhead_ms(count: int) -> float:
    """Wall time per task on one worker, less the stub agent's own run (copy of a 10-file folder,
    a check, a diff)."""
    folder, stub, log = _setup(count, with_source=True)
    agent, agent_cpu = _stub_alone(stub, log, min(count, 50))
    cpu = _cpu()
    wall = _batch(folder, stub, log, workers=1) / count
    global LAST_CPU_MS
    LAST_CPU_MS = ((_cpu() - cpu) / count - agent_cpu) * 1000
    return (wall - agent) * 1000


LAST_CPU_MS = 0.0


def _agents_alive(marker: bytes) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                    count += marker in f.read()
            except OSError:
                continue
    return count


def idle_percent(count: int, workers: int, sleep: float) -> float:
    """Of ``workers`` agent slots over the batch's wall time, the share with no agent process alive
    (sampled from /proc every 50 ms; an agent counts from its spawn to its exit)."""
    folder, stub, log = _setup(count, with_source=False)
    samples: list[int] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            samples.append(_agents_alive(str(stub).encode()))

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        _batch(folder, stub, log, workers=workers, sleep=str(sleep))
    finally:
        done.set()
        sampler.join()
    return max(0.0, 100.0 * (1 - sum(samples) / (workers * len(samples))))


def resume_ms(count: int) -> float:
    """Reading a tasks file and a results file of ``count`` tasks (2 KB diffs) and choosing what
    is left to run: the whole cost of a rerun deciding there is nothing to do."""
    folder = _scratch()
    tasks = folder / "tasks.jsonl"
    tasks.write_text(
        "".join(f'{{"id": "t{n}", "prompt": "fix bug {n}", "cwd": "src"}}\n' for n in range(count))
    )
    results = ResultsFile(folder / "results.jsonl")
    diff = "diff --git a/x.py b/x.py\n" + "+    return value  # a changed line\n" * 55
    for n in range(count):
        results.append(
            TaskResult(
                id=f"t{n}", status="done", passed=True, turns=4, tokens=Tokens(9000, 700, 9700), diff=diff
            )
        )
    results.close()
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        todo = to_run(read_tasks(tasks)[0], latest_statuses(folder / "results.jsonl"), retry_failed=True)
        best = min(best, time.perf_counter() - started)
        assert todo == []
    return best * 1000


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    if smoke:
        return [
            ("batch runner overhead per task (10, 1 worker)", lambda: overhead_ms(10), "ms", None),
            ("batch idle agent slots (16 tasks, 4 workers)", lambda: idle_percent(16, 4, 0.2), "%", None),
            ("batch resume decision (1,000 results)", lambda: resume_ms(1000), "ms", None),
        ]
    return [
        ("batch runner overhead per task (100, 1 worker)", lambda: overhead_ms(100), "ms", 50.0),
        ("batch idle agent slots (200 tasks, 8 workers)", lambda: idle_percent(200, 8, 1.0), "%", 10.0),
        ("batch resume decision (10,000 results)", lambda: resume_ms(10_000), "ms", 1000.0),
    ]


if __name__ == "__main__":
    for name, measure, unit, target in cases(smoke="--smoke" in sys.argv):
        value = measure()
        extra = (
            f"  (runner CPU, its git and check processes included, the agent's not: {LAST_CPU_MS:.1f} ms/task)"
            if "overhead" in name
            else ""
        )
        print(f"{name}: {value:.1f} {unit} (target {target}){extra}")
