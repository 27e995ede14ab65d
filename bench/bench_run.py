"""A whole ``tau -p`` run as a user runs it: read a file, then answer (2 model calls, 1 tool).

The model is a local HTTP server streaming scripted replies (no delay), so the numbers are
Tau's own: process start, configuration, two requests, one tool, the session file, exit.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_cli import tau_executable
from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body

API = "openai-completions"


def _run_once(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, peak RSS MiB) of one run of ``argv``.

    The peak is measured through a small intermediate process (GNU time when present, else a
    minimal Python launcher that execs): a child forked straight from this big benchmark
    process would be charged with the parent's pages it shared before exec.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as report:
        if shutil.which("time") or Path("/usr/bin/time").exists():
            wrapped = ["/usr/bin/time", "-f", "%M", "-o", report.name, *argv]
        else:
            launcher = (
                "import os,resource,sys,subprocess;"
                "p=subprocess.run(sys.argv[2:]);"
                "open(sys.argv[1],'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss));"
                "sys.exit(p.returncode)"
            )
            wrapped = [sys.executable, "-c", launcher, report.name, *argv]
        start = time.perf_counter()
        done = subprocess.run(wrapped, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = (time.perf_counter() - start) * 1000
        if done.returncode != 0:
            raise RuntimeError(f"tau failed: {done.stderr.decode()}")
        peak_kib = int(report.read().strip().splitlines()[-1])
    return wall, peak_kib / 1024


def read_then_answer(runs: int) -> tuple[float, float]:
    """Median wall ms and max peak RSS MiB over ``runs`` runs."""
    replies = [
        ScriptedReply(
            text="Let me look.", calls=[ScriptedCall("call_000000001", "read", {"path": "config.py"})]
        ),
        ScriptedReply(text="The port is 9090."),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        home = Path(tmp) / "home"
        root.mkdir()
        (root / "config.py").write_text("PORT = 9090\n")
        # A user's install has compiled bytecode; a PYTHONDONTWRITEBYTECODE environment (as on
        # these machines) would make every run recompile every module and measure that instead.
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.endswith("_API_KEY") and k != "PYTHONDONTWRITEBYTECODE"
        }
        env.update(HOME=str(home), TAU_HOME=str(home / ".tau"))
        responses = [Scripted(body=sse_body(API, r), chunked=False) for r in replies]
        walls, peaks = [], []
        for _ in range(runs):
            with ReplayServerThread(responses) as server:
                provider: dict[str, Any] = {
                    "baseUrl": server.url,
                    "api": API,
                    "apiKey": "test-key",
                    "models": [{"id": "m"}],
                }
                (home / ".tau").mkdir(parents=True, exist_ok=True)
                (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
                argv = [*tau_executable(), "-p", "--model", "local/m", "Which port?"]
                wall, peak = _run_once(argv, root, env)
            walls.append(wall)
            peaks.append(peak)
    return statistics.median(walls), max(peaks)


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    runs = 2 if smoke else 10
    measured: dict[str, tuple[float, float]] = {}

    def once() -> tuple[float, float]:
        if "r" not in measured:
            measured["r"] = read_then_answer(runs)
        return measured["r"]

    return [
        ("run: tau -p read-then-answer, wall", lambda: once()[0], "ms", 300.0),
        ("run: tau -p read-then-answer, peak RSS", lambda: once()[1], "MiB", 60.0),
    ]


if __name__ == "__main__":
    print(read_then_answer(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
