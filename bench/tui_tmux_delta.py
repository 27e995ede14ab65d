"""CPU per streamed text delta of the real ``tau`` TUI in tmux, as bench_stream measures the other modes.

A local server streams a reply of n one-character deltas, one HTTP chunk per SSE event and no
pause between them (a burst, as bench_stream sends it). The ``tau`` process's CPU time (user +
system, from /proc) is read from the moment the prompt is sent until the footer no longer
says "working…" and the process is idle; the figure is (an n-delta run − a one-delta run) / (n − 1). Unlike
bench_stream it includes the frames the TUI paints while the burst lasts (paced by their cost,
so a few dozen a second), which is what a user's terminal gets; start-up is not counted at all.

    .venv/bin/python -m bench.tui_tmux_delta [N] [--python /other/.venv/bin/python] [--fullscreen] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_stream import scripted_stream
from bench.tui_tmux_latency import _tmux, cpu_seconds

API = "openai-completions"


def _wait(socket: Path, check: str, present: bool = True, timeout: float = 120.0) -> None:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if (check in _tmux(socket, "capture-pane", "-p", "-t", "b")) == present:
            return
        time.sleep(0.01)
    raise TimeoutError(f"{check!r} {'never showed' if present else 'never left'}")


def _settled_cpu(socket: Path, pid: int, timeout: float = 300.0) -> float:
    """The process's CPU time once the reply has ended: the footer no longer says "working…" and
    the CPU time stood still for two looks in a row. (Waiting to see "working…" first does not
    work: a TUI busy with a burst may paint its first frame after the reply has ended.)"""
    start, last, still = time.perf_counter(), -1.0, 0
    while time.perf_counter() - start < timeout:
        time.sleep(0.2)
        if "working…" in _tmux(socket, "capture-pane", "-p", "-t", "b"):
            still = 0
            continue
        now = cpu_seconds(pid)
        still = still + 1 if now - last < 0.005 else 0
        if still >= 2:
            return now
        last = now
    raise TimeoutError("the reply never ended")


def stream_cpu(python: str, n: int, flags: tuple[str, ...] = ()) -> float:
    """Seconds of the TUI process's CPU from Enter until a reply of ``n`` deltas has ended."""
    from tau_ai.testing.replay_server import ReplayServerThread

    with (
        tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp,
        ReplayServerThread(scripted_stream(API, n)) as server,
    ):
        folder = Path(tmp)
        project, home = folder / "project", folder / "home"
        project.mkdir()
        (home / ".tau").mkdir(parents=True)
        provider = {"baseUrl": server.url, "api": API, "apiKey": "k", "models": [{"id": "m"}]}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        env = {"HOME": str(home), "TAU_HOME": str(home / ".tau"), "PATH": os.environ["PATH"]}
        env["TERM"] = "xterm-256color"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        pid_file = folder / "tau.pid"
        command = (
            f"cd {shlex.quote(str(project))} && echo $$ > {shlex.quote(str(pid_file))} && "
            f"exec env -i {exports} {shlex.quote(python)} -m tau_coding --model local/m --no-session"
        )
        command += "".join(f" {shlex.quote(flag)}" for flag in flags)
        socket = folder / "tmux.sock"
        _tmux(socket, "new-session", "-d", "-s", "b", "-x", "120", "-y", "40", command)
        try:
            _wait(socket, "Ask anything")
            _tmux(socket, "send-keys", "-t", "b", "-l", "go")
            _wait(socket, "│ go")
            pid = int(pid_file.read_text())
            time.sleep(0.5)  # let start-up's deferred work settle before the count starts
            used = cpu_seconds(pid)
            _tmux(socket, "send-keys", "-t", "b", "Enter")
            return _settled_cpu(socket, pid) - used
        finally:
            subprocess.run(["tmux", "-S", str(socket), "kill-server"], capture_output=True)
            for _ in range(100):  # let tau go before its folder does
                if not pid_file.exists() or not Path(f"/proc/{pid_file.read_text().strip()}").exists():
                    break
                time.sleep(0.05)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("n", nargs="?", type=int, default=100_000)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    flags = ("--fullscreen",) if args.fullscreen else ()
    full, base = [], []
    for _ in range(args.runs):  # alternating, so load falls on both
        full.append(stream_cpu(args.python, args.n, flags))
        base.append(stream_cpu(args.python, 1, flags))
    per = (min(full) - min(base)) / (args.n - 1) * 1e6
    print(f"tui {'fullscreen' if args.fullscreen else 'inline'}: {per:.2f} us/delta")
    print(
        f"  {args.n} deltas: {', '.join(f'{x:.2f}' for x in full)} s; one delta: {', '.join(f'{x:.2f}' for x in base)} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
