"""Esc to cancelled, many times in one ``tau`` under tmux: the spread, not one sample a process.

``tui_tmux_latency.py`` presses Esc once a round (a whole process each time). Here one ``tau``
(inline, or ``--fullscreen``) is asked ``--escapes`` times for a ~200 tokens/s answer and each
one is cancelled mid-stream, at a random moment in the frame: the time from ``send-keys
Escape`` until the pane no longer says "working…". The pane is polled with ``capture-pane``
(a few ms a look), so each sample carries that much resolution. ``--python`` picks the
interpreter (another checkout's venv, to compare before and after).

    .venv/bin/python -m bench.tui_tmux_escape [--python /other/.venv/bin/python] [--escapes 20] [--fullscreen]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.tui_tmux_latency import API, _tmux, _wait
from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body


def escape_times(python: str, folder: Path, escapes: int, flags: tuple[str, ...]) -> list[float]:
    """Milliseconds from each Esc to the footer's "working…" gone, ``escapes`` runs in a row."""
    words = tuple(f"word{i} " for i in range(3000))
    body = sse_body(API, ScriptedReply(chunks=words))
    stream = Scripted(body=body, chunk_size=max(1, len(body) // 3000), delay=0.005)
    project, home = folder / "project", folder / "home"
    project.mkdir(parents=True)
    with ReplayServerThread([stream]) as server:  # the last response repeats: one for every run
        (home / ".tau").mkdir(parents=True)
        provider = {"baseUrl": server.url, "api": API, "apiKey": "k", "models": [{"id": "m"}]}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        (home / ".tau" / "settings.json").write_text(json.dumps({"autoTitle": False}))
        env = {"HOME": str(home), "TAU_HOME": str(home / ".tau"), "PATH": os.environ["PATH"]}
        env["TERM"] = "xterm-256color"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        command = f"cd {shlex.quote(str(project))} && exec env -i {exports} {shlex.quote(python)} -m tau_coding --model local/m"
        command += "".join(f" {shlex.quote(flag)}" for flag in flags)
        socket = folder / "tmux.sock"
        _tmux(socket, "new-session", "-d", "-s", "b", "-x", "120", "-y", "40", command)
        times: list[float] = []
        try:
            _wait(socket, "Ask anything")
            for run in range(escapes):
                _tmux(socket, "send-keys", "-t", "b", "-l", f"go{run}")
                _wait(socket, f"│ go{run}")
                _tmux(socket, "send-keys", "-t", "b", "Enter")
                _wait(socket, "working…")
                time.sleep(random.uniform(0.5, 0.7))  # streaming by now, at a random point of a frame
                start = time.perf_counter()
                _tmux(socket, "send-keys", "-t", "b", "Escape")
                _wait(socket, "working…", present=False)
                times.append((time.perf_counter() - start) * 1000)
        finally:
            subprocess.run(["tmux", "-S", str(socket), "kill-server"], capture_output=True)
        return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--escapes", type=int, default=20)
    parser.add_argument("--fullscreen", action="store_true", help="the full-screen app, not inline")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        flags = ("--fullscreen",) if args.fullscreen else ()
        times = escape_times(args.python, Path(folder), args.escapes, flags)
    deciles = statistics.quantiles(times, n=10)
    print(
        f"Esc to cancelled ({'full-screen' if args.fullscreen else 'inline'}, {len(times)} runs): "
        f"median {statistics.median(times):.1f} ms, p10 {deciles[0]:.1f}, p90 {deciles[-1]:.1f}, "
        f"max {max(times):.1f} ms (load {os.getloadavg()[0]:.1f})"
    )
    print("samples:", " ".join(f"{t:.0f}" for t in times))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
