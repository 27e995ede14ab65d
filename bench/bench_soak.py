"""Tau's own time per extra tool turn in a real ``tau -p`` process (the issue's target: <= 3 ms).

The wall time of a run of 90 tiny ``read`` turns (91 model requests) minus that of a run that
answers at once, divided by 90. The model is a local keep-alive server answering instantly, so
what remains is Tau: the request build, HTTP, stream parsing, the read tool, the session file
append and the events. ``loop: tool round trip`` (bench_loop.py) is the same turn without HTTP,
files or process; the long soak (1,000 requests, every mode) is ``python bench/soak.py``.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.tau_project import ANSWER, TauProject, answer, body, read_call
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted

API = "openai-completions"


def run_ms(turns: int) -> float:
    """Wall ms of one ``tau -p`` run of ``turns`` read turns and then the answer."""
    read_body, answer_body = body(API, read_call(1)), body(API, answer())

    def respond(request: RecordedRequest, index: int) -> Scripted:
        return Scripted(body=answer_body if index >= turns else read_body, chunked=False)

    with (
        tempfile.TemporaryDirectory(prefix="tau-turns-") as tmp,
        ReplayServerThread(respond, keep_alive=True) as server,
    ):
        project = TauProject.create(Path(tmp), API, server.url)
        start = time.perf_counter()
        done = subprocess.run(
            project.argv("-p", "Read config.py a few times."),
            cwd=project.root,
            env=project.env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        wall = (time.perf_counter() - start) * 1000
        if done.returncode != 0 or done.stdout.strip() != ANSWER:
            raise RuntimeError(f"tau failed after {len(server.requests)} requests: {done.stderr[-300:]}")
    return wall


def ms_per_extra_turn(turns: int, runs: int) -> float:
    """Median (wall of ``turns`` read turns - wall of none) / ``turns``, over ``runs`` pairs."""
    values = [(run_ms(turns) - run_ms(0)) / turns for _ in range(runs)]
    return statistics.median(values)


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    turns, runs = (10, 1) if smoke else (90, 5)
    return [
        (
            f"soak: tau -p time per extra tool turn ({turns} turns)",
            lambda: ms_per_extra_turn(turns, runs),
            "ms",
            3.0,
        )
    ]
