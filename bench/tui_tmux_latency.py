"""Keystroke echo while an answer streams, and Esc to cancelled, in ``tau`` under tmux.

A local server streams an answer at about 200 tokens/s. Each key is sent with ``tmux send-keys``
and the pane is polled until it shows; Esc is pressed mid-stream and the pane polled until the
footer no longer says "working…". Polling ``capture-pane`` costs a few ms per look, so the
numbers carry that much resolution. ``--python`` picks the interpreter whose ``tau_coding`` runs
(another checkout's venv, to compare before and after); ``--fullscreen`` runs the full-screen
app instead of the inline one (the default).

    .venv/bin/python -m bench.tui_tmux_latency [--python /other/.venv/bin/python] [--rounds 3] [--fullscreen]
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

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body

API = "openai-completions"
KEYS = "abcdefghijklmnopqrst"


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


def one_round(python: str, folder: Path, flags: tuple[str, ...] = ()) -> tuple[list[float], float]:
    """Echo times (ms) of each key typed while streaming, and Esc to cancelled (ms)."""
    words = tuple(f"word{i} " for i in range(3000))  # ~15 s at 200 tokens/s
    body = sse_body(API, ScriptedReply(chunks=words))
    stream = Scripted(body=body, chunk_size=max(1, len(body) // 3000), delay=0.005)
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
        command = f"cd {shlex.quote(str(project))} && env -i {exports} {shlex.quote(python)} -m tau_coding --model local/m"
        command += "".join(f" {shlex.quote(flag)}" for flag in flags)
        socket = folder / "tmux.sock"
        _tmux(socket, "new-session", "-d", "-s", "b", "-x", "120", "-y", "40", command)
        try:
            _wait(socket, "Ask anything")
            _tmux(socket, "send-keys", "-t", "b", "-l", "go")
            _wait(socket, "│ go")
            _tmux(socket, "send-keys", "-t", "b", "Enter")
            _wait(socket, "word200 ")
            echoes = []
            typed = ""
            for key in KEYS:
                typed += key
                start = time.perf_counter()
                _tmux(socket, "send-keys", "-t", "b", "-l", key)
                _wait(socket, "│ " + typed)
                echoes.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            _tmux(socket, "send-keys", "-t", "b", "Escape")
            _wait(socket, "working…", present=False)
            cancel = (time.perf_counter() - start) * 1000
            return echoes, cancel
        finally:
            subprocess.run(["tmux", "-S", str(socket), "kill-server"], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fullscreen", action="store_true", help="the full-screen app, not inline")
    args = parser.parse_args()
    echoes: list[float] = []
    cancels: list[float] = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as folder:
            keys, cancel = one_round(args.python, Path(folder), ("--fullscreen",) if args.fullscreen else ())
        echoes += keys
        cancels.append(cancel)
    print(
        f"echo while streaming: median {statistics.median(echoes):.1f} ms, "
        f"p90 {statistics.quantiles(echoes, n=10)[-1]:.1f} ms, max {max(echoes):.1f} ms ({len(echoes)} keys)"
    )
    print(f"Esc to cancelled: median {statistics.median(cancels):.1f} ms, best {min(cancels):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
