"""Ready to type, and keystroke echo at rest, in ``tau`` under tmux: new and with a long session.

Starts ``tau`` in a fresh tmux server and polls the pane until the editor's placeholder shows
(spawn to first paint of an editable prompt, the interpreter's start included), then waits
until the start's work is done ("settled": the footer shows the session's model and the process
used no CPU for ``IDLE_SECONDS``; the session opens and its history is written after the first
paint), then types 20 keys one at a time, each polled until it shows: the echo at rest. With ``--messages N`` the run resumes a session
of N messages (``--session``), which inline mode loads and writes its newest items from.
Polling ``capture-pane`` costs a few ms per look, so the numbers carry that much resolution.
On a loaded machine the wall times mostly measure waiting for a core, so the ``tau`` process's
CPU time (user + system, from /proc) is reported too: spent until ready, and per key echoed.
Issue 22's targets: ready ≤ 300 ms (≤ 400 ms with 10k messages), a key ≤ 16 ms with 10k messages.

    .venv/bin/python -m bench.tui_tmux_start [--python /other/.venv/bin/python] [--rounds 5] [--messages 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from bench.bench_sessions import turn_message
from bench.tui_tmux_latency import _tmux, _wait, cpu_seconds, echo_times
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog


def _session(path: Path, project: Path, messages: int) -> Path:
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new(str(project)), fsync="never"))
    for i in range(messages):
        log.append_message(turn_message(i))
    log.close()
    return path


IDLE_SECONDS = 0.15


def _settle(socket: Path, pid: int) -> None:
    """Until the session shows (its model in the footer) and the process is idle."""
    _wait(socket, "local/m")
    used = cpu_seconds(pid)
    while True:
        time.sleep(IDLE_SECONDS)
        if (now := cpu_seconds(pid)) == used:
            return
        used = now


class Round(NamedTuple):
    ready: float  # spawn to an editable prompt, ms
    settled: float  # spawn to the session shown and the process idle, ms (less IDLE_SECONDS)
    echoes: list[float]  # each typed key's echo, ms
    ready_cpu: float  # the process's CPU time until ready, ms
    key_cpu: float  # its CPU time per key while typing, ms


def one_round(python: str, folder: Path, messages: int) -> Round:
    """Start ``tau`` (on a session of ``messages`` messages) and type into it."""
    project, home = folder / "project", folder / "home"
    project.mkdir(parents=True)
    (home / ".tau").mkdir(parents=True)
    provider = {
        "baseUrl": "http://127.0.0.1:9",
        "api": "openai-completions",
        "apiKey": "k",
        "models": [{"id": "m"}],
    }
    (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
    flags = ["--model", "local/m"]
    if messages:
        flags += ["--session", str(_session(folder / "long.jsonl", project, messages))]
    env = {
        "HOME": str(home),
        "TAU_HOME": str(home / ".tau"),
        "PATH": os.environ["PATH"],
        "TERM": "xterm-256color",
    }
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    pid_file = folder / "tau.pid"
    command = f"cd {shlex.quote(str(project))} && echo $$ > {shlex.quote(str(pid_file))} && exec env -i {exports} {shlex.quote(python)} -m tau_coding"
    command += "".join(f" {shlex.quote(flag)}" for flag in flags)
    socket = folder / "tmux.sock"
    start = time.perf_counter()
    _tmux(socket, "new-session", "-d", "-s", "b", "-x", "120", "-y", "40", command)
    try:
        _wait(socket, "Ask anything")
        ready = (time.perf_counter() - start) * 1000
        pid = int(pid_file.read_text())
        ready_cpu = cpu_seconds(pid)
        _settle(socket, pid)
        settled = (time.perf_counter() - start - IDLE_SECONDS) * 1000
        settled_cpu = cpu_seconds(pid)
        echoes = echo_times(socket)
        key_cpu = (cpu_seconds(pid) - settled_cpu) / len(echoes)
        return Round(ready, settled, echoes, ready_cpu * 1000, key_cpu * 1000)
    finally:
        subprocess.run(["tmux", "-S", str(socket), "kill-server"], capture_output=True)


def measure(python: str, rounds: int, messages: int) -> list[Round]:
    found = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            found.append(one_round(python, Path(folder), messages))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--messages", type=int, nargs="*", default=[0, 10_000])
    args = parser.parse_args()
    for messages in args.messages:
        found = measure(args.python, args.rounds, messages)
        readies = [r.ready for r in found]
        echoes = [e for r in found for e in r.echoes]
        what = f"{messages} messages" if messages else "new session"
        print(
            f"{what}: ready to type median {statistics.median(readies):.0f} ms, best {min(readies):.0f} ms; "
            f"settled median {statistics.median(r.settled for r in found):.0f} ms; "
            f"key echo at rest median {statistics.median(echoes):.1f} ms, p90 {statistics.quantiles(echoes, n=10)[-1]:.1f} ms; "
            f"CPU until ready median {statistics.median(r.ready_cpu for r in found):.0f} ms, "
            f"per key {statistics.median(r.key_cpu for r in found):.1f} ms (load {os.getloadavg()[0]:.1f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
