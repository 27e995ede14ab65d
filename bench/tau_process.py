"""Run the real ``tau`` command against a local scripted model server, as a user runs it.

The server streams each reply with one HTTP chunk per SSE event, as real providers do, and
keeps connections alive. Each run is measured through GNU time (wall, CPU of the tau process
alone, peak RSS), so the numbers are Tau's own: process start, configuration, requests, tools,
the session file, exit. No ``cases`` here: bench_process.py holds the cases built on this.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.bench_cli import tau_executable
from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body

API = "openai-completions"


def one_chunk_per_event(body: bytes) -> Scripted:
    """``body`` served with one HTTP chunk per SSE event (split after every blank line)."""
    cuts, at = [], body.find(b"\n\n")
    while at != -1:
        cuts.append(at + 2)
        at = body.find(b"\n\n", at + 2)
    return Scripted(body=body, split_at=cuts)


@dataclass(frozen=True, slots=True)
class Measured:
    wall_ms: float
    cpu_ms: float  # user + system time of the tau process
    peak_mib: float


@dataclass(frozen=True, slots=True)
class Project:
    """A scratch project folder and HOME in which tau runs."""

    root: Path
    home: Path
    env: dict[str, str]

    def run(
        self, replies: Sequence[ScriptedReply], args: Sequence[str], stdin: bytes | None = None
    ) -> Measured:
        """One run of ``tau --model local/m *args`` whose model answers ``replies`` in order."""
        responses = [one_chunk_per_event(sse_body(API, r)) for r in replies]
        with ReplayServerThread(responses, keep_alive=True) as server:
            provider = {"baseUrl": server.url, "api": API, "apiKey": "test-key", "models": [{"id": "m"}]}
            (self.home / ".tau").mkdir(parents=True, exist_ok=True)
            (self.home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
            return measure([*command(self.env), "--model", "local/m", *args], self.root, self.env, stdin)


def command(env: dict[str, str]) -> list[str]:
    """The tau command; with ``TAU_BENCH_SRC`` set, the tau whose sources are in that folder
    (``python -m tau_coding`` with it first on the path), to compare two versions in one batch."""
    source = env.get("TAU_BENCH_SRC")
    if not source:
        return tau_executable()
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH", "")) if p)
    return [sys.executable, "-m", "tau_coding"]


@contextmanager
def project(files: dict[str, str] | None = None) -> Iterator[Project]:
    with tempfile.TemporaryDirectory(prefix="tau-bench-run-") as tmp:
        root, home = Path(tmp) / "project", Path(tmp) / "home"
        root.mkdir()
        home.mkdir()
        for name, text in (files or {}).items():
            (root / name).write_text(text)
        # A user's install has compiled bytecode; a PYTHONDONTWRITEBYTECODE environment (as on
        # these machines) would make every run recompile every module and measure that instead.
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.endswith("_API_KEY") and k != "PYTHONDONTWRITEBYTECODE"
        }
        env.update(HOME=str(home), TAU_HOME=str(home / ".tau"))
        yield Project(root, home, env)


def measure(argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None = None) -> Measured:
    """Wall, CPU and peak RSS of one run of ``argv`` (through GNU time, so the RSS is the
    child's own, not pages shared with this big benchmark process before exec)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        wrapped = ["/usr/bin/time", "-f", "%U %S %M", "-o", report.name, *argv]
        start = time.perf_counter()
        done = subprocess.run(
            wrapped, cwd=cwd, env=env, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        wall = (time.perf_counter() - start) * 1000
        if done.returncode != 0:
            raise RuntimeError(f"tau failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
        user, system, peak_kib = report.read().strip().splitlines()[-1].split()
    return Measured(wall, (float(user) + float(system)) * 1000, int(peak_kib) / 1024)
