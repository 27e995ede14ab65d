"""Keystroke echo while an answer streams, Esc to cancelled, and the CPU streaming costs, in
``tau`` under tmux.

A local server streams an answer at about 200 tokens/s. First the ``tau`` process's CPU time
(user + system, from /proc) is read over ``CPU_SECONDS`` of streaming, nothing typed: the share
of one core the TUI takes to show 200 tokens/s. Then each key is sent with ``tmux send-keys``
and the pane is polled until it shows; Esc is pressed mid-stream and the pane polled until the
footer no longer says "working…". Polling ``capture-pane`` costs a few ms per look, so the
numbers carry that much resolution. ``--python`` picks the interpreter whose ``tau_coding`` runs
(another checkout's venv, to compare before and after); ``--fullscreen`` runs the full-screen
app instead of the inline one (the default); ``--markdown`` streams ``bench/markdown_answer.py``
(headings, lists, code blocks, tables, in pieces of 4 characters) instead of plain words.

    .venv/bin/python -m bench.tui_tmux_latency [--python /other/.venv/bin/python] [--rounds 3] [--fullscreen] [--markdown]
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

from bench.markdown_answer import markdown_answer
from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body

API = "openai-completions"
KEYS = "abcdefghijklmnopqrst"
CPU_SECONDS = 3.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tmux(socket: Path, *args: str) -> str:
    return subprocess.run(
        ["tmux", "-S", str(socket), *args], capture_output=True, text=True, check=True
    ).stdout


def _wait(socket: Path, check: str, present: bool = True, timeout: float = 30.0) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if (check in _tmux(socket, "capture-pane", "-p", "-t", "b")) == present:
            return (time.perf_counter() - start) * 1000
    raise TimeoutError(f"{check!r} {'never showed' if present else 'never left'}")


def echo_times(socket: Path) -> list[float]:
    """Type ``KEYS`` one at a time into the editor: how long (ms) each took to show."""
    echoes = []
    typed = ""
    for key in KEYS:
        typed += key
        start = time.perf_counter()
        _tmux(socket, "send-keys", "-t", "b", "-l", key)
        _wait(socket, "│ " + typed)
        echoes.append((time.perf_counter() - start) * 1000)
    return echoes


def one_round(
    python: str, folder: Path, flags: tuple[str, ...] = (), markdown: bool = False
) -> tuple[list[float], float, float]:
    """Echo times (ms) of each key typed while streaming, Esc to cancelled (ms), and the CPU
    used while streaming untouched (% of one core)."""
    if markdown:
        text = markdown_answer()
        chunks: tuple[str, ...] = tuple(text[i : i + 4] for i in range(0, len(text), 4))  # ~36 s
        shown = "handler_0"
    else:
        chunks = tuple(f"word{i} " for i in range(3000))  # ~15 s at 200 tokens/s
        shown = "word200 "
    body = sse_body(API, ScriptedReply(chunks=chunks))
    stream = Scripted(body=body, chunk_size=max(1, len(body) // len(chunks)), delay=0.005)
    project, home = folder / "project", folder / "home"
    project.mkdir(parents=True)
    with ReplayServerThread([stream]) as server:
        (home / ".tau").mkdir(parents=True)
        provider = {"baseUrl": server.url, "api": API, "apiKey": "k", "models": [{"id": "m"}]}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        env = {
            "HOME": str(home),
            "TAU_HOME": str(home / ".tau"),
            "PATH": os.environ["PATH"],
            "TERM": "xterm-256color",
        }
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        pid_file = folder / "tau.pid"
        command = f"cd {shlex.quote(str(project))} && echo $$ > {shlex.quote(str(pid_file))} && exec env -i {exports} {shlex.quote(python)} -m tau_coding --model local/m"
        command += "".join(f" {shlex.quote(flag)}" for flag in flags)
        socket = folder / "tmux.sock"
        _tmux(socket, "new-session", "-d", "-s", "b", "-x", "120", "-y", "40", command)
        try:
            _wait(socket, "Ask anything")
            _tmux(socket, "send-keys", "-t", "b", "-l", "go")
            _wait(socket, "│ go")
            _tmux(socket, "send-keys", "-t", "b", "Enter")
            _wait(socket, shown)
            pid = int(pid_file.read_text())
            used, start = cpu_seconds(pid), time.perf_counter()
            time.sleep(CPU_SECONDS)
            cpu = (cpu_seconds(pid) - used) / (time.perf_counter() - start) * 100
            echoes = echo_times(socket)
            start = time.perf_counter()
            _tmux(socket, "send-keys", "-t", "b", "Escape")
            _wait(socket, "working…", present=False)
            cancel = (time.perf_counter() - start) * 1000
            return echoes, cancel, cpu
        finally:
            subprocess.run(["tmux", "-S", str(socket), "kill-server"], capture_output=True)
            _wait_gone(pid_file)


def _wait_gone(pid_file: Path, timeout: float = 10.0) -> None:
    """Wait for the ``tau`` that tmux hung up on to exit: until then it may still write its
    session into the folder about to be removed."""
    if not pid_file.exists():
        return
    proc = Path(f"/proc/{pid_file.read_text().strip()}")
    deadline = time.perf_counter() + timeout
    while proc.exists() and time.perf_counter() < deadline:
        time.sleep(0.02)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fullscreen", action="store_true", help="the full-screen app, not inline")
    parser.add_argument("--markdown", action="store_true", help="stream markdown of every kind, not words")
    args = parser.parse_args()
    echoes: list[float] = []
    cancels: list[float] = []
    cpus: list[float] = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as folder:
            flags = ("--fullscreen",) if args.fullscreen else ()
            keys, cancel, cpu = one_round(args.python, Path(folder), flags, args.markdown)
        echoes += keys
        cancels.append(cancel)
        cpus.append(cpu)
    print(
        f"echo while streaming: median {statistics.median(echoes):.1f} ms, "
        f"p90 {statistics.quantiles(echoes, n=10)[-1]:.1f} ms, max {max(echoes):.1f} ms ({len(echoes)} keys)"
    )
    print(f"Esc to cancelled: median {statistics.median(cancels):.1f} ms, best {min(cancels):.1f} ms")
    print(
        f"CPU streaming 200 tokens/s: median {statistics.median(cpus):.1f} %, "
        f"best {min(cpus):.1f} % of one core (load {os.getloadavg()[0]:.1f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
