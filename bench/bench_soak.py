"""Tau's own time per extra tool turn in a real ``tau -p`` process (the issue's target: <= 3 ms).

The wall time of a run of 90 tiny ``read`` turns (91 model requests) minus that of a run that
answers at once, divided by 90. The model is a local keep-alive server answering instantly, so
what remains is Tau: the request build, HTTP, stream parsing, the read tool, the session file
append and the events. ``loop: tool round trip`` (bench_loop.py) is the same turn without HTTP,
files or process; the long soak (1,000 requests, every mode) is ``python bench/soak.py``.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.tau_project import ANSWER, TauProject, answer, body, read_call
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted

API = "openai-completions"


def run_ms(turns: int) -> tuple[float, float]:
    """(wall ms, CPU ms) of one ``tau -p`` run of ``turns`` read turns and then the answer.

    CPU time (user + system of the tau process) is what a busy shared machine distorts least."""
    read_body, answer_body = body(API, read_call(1)), body(API, answer())

    def respond(request: RecordedRequest, index: int) -> Scripted:
        return Scripted(body=answer_body if index >= turns else read_body, chunked=False)

    with (
        tempfile.TemporaryDirectory(prefix="tau-turns-") as tmp,
        ReplayServerThread(respond, keep_alive=True) as server,
    ):
        project = TauProject.create(Path(tmp), API, server.url)
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(
            project.argv("-p", "Read config.py a few times."),
            cwd=project.root,
            env=project.env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        wall, cpu = (time.perf_counter() - start) * 1000, (_children_cpu() - cpu) * 1000
        if done.returncode != 0 or done.stdout.strip() != ANSWER:
            raise RuntimeError(f"tau failed after {len(server.requests)} requests: {done.stderr[-300:]}")
    return wall, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ms_per_extra_turn(turns: int, runs: int) -> tuple[float, float]:
    """Medians of (time of ``turns`` read turns - time of none) / ``turns`` over ``runs`` pairs:
    (wall ms, CPU ms)."""
    walls, cpus = [], []
    for _ in range(runs):
        (wall, cpu), (wall0, cpu0) = run_ms(turns), run_ms(0)
        walls.append((wall - wall0) / turns)
        cpus.append((cpu - cpu0) / turns)
    return statistics.median(walls), statistics.median(cpus)


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    turns, runs = (10, 1) if smoke else (90, 5)
    measured: dict[str, tuple[float, float]] = {}

    def once() -> tuple[float, float]:
        if "m" not in measured:
            measured["m"] = ms_per_extra_turn(turns, runs)
        return measured["m"]

    name = f"soak: tau -p per extra tool turn ({turns} turns)"
    return [(f"{name}, wall", lambda: once()[0], "ms", 3.0), (f"{name}, CPU", lambda: once()[1], "ms", 3.0)]
