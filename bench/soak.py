"""Soak: one ``tau`` process, many model requests (tiny ``read`` turns), in every mode.

    python bench/soak.py                          # 1,000 requests in every mode
    python bench/soak.py --requests 250 --mode print --mode rpc

The model is a local keep-alive HTTP server on loopback that answers with a ``read`` of
config.py until the last request of a prompt, which gets the answer. Print and JSON modes run
one prompt; RPC sends ``--prompts`` prompts to one process; TUI mode types one prompt into
``tau`` in tmux (inline, the default; ``tui-fullscreen`` with ``--fullscreen``). When request 100 and the last request arrive (the process is then waiting for
the reply) the suite counts the process's file descriptors and sockets (/proc/PID/fd) and reads
its RSS and CPU time (user + system, reported per request between the two); it also records when each request arrived and how many connections the process opened.

A run passes when it finishes with the answer and: file descriptors and sockets at the end are
no more than at request 100 (+1 for noise); RSS at the end is within 10 % of request 100; the
mean time between requests over the last 100 is within 50 % (+2 ms) of requests 100-200 (the
request grows with the conversation, so some growth is expected); and the process used at most
two connections (one keep-alive connection serves the session). Exits 1 when a run fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_cli import tau_executable
from bench.tau_project import ANSWER, MODEL, TauProject, answer, body, read_call
from tau_ai.testing.replay_server import RecordedRequest, ReplayServer, Scripted
from tau_coding.sdk.rpc_client import RpcClient

API = "openai-completions"
MODES = ("print", "json", "rpc", "tui", "tui-fullscreen")
PROMPT = "Read config.py again and again until I say stop."
CHECKPOINT = 100


@dataclass(frozen=True)
class Sample:
    request: int
    fds: int
    sockets: int
    rss_kib: int
    cpu_seconds: float = 0.0


@dataclass
class SoakResult:
    mode: str
    requests: int
    served: int = 0
    finished: bool = False
    error: str = ""
    samples: list[Sample] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)
    connections: int = 0
    seconds: float = 0.0

    def gap_ms(self, start: int, stop: int) -> float:
        """Mean time between consecutive requests ``start``..``stop`` (1-based), in ms."""
        times = self.arrivals[max(start - 1, 0) : stop]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        return statistics.fmean(gaps) * 1000 if gaps else 0.0

    def problems(self) -> list[str]:
        found = [] if self.finished else [f"did not finish: {self.error or 'no answer'}"]
        if self.served != self.requests:
            found.append(f"the server saw {self.served} of {self.requests} requests")
        if len(self.samples) == 2:
            first, last = self.samples
            if last.fds > first.fds + 1:
                found.append(f"file descriptors grew from {first.fds} to {last.fds}")
            if last.sockets > first.sockets + 1:
                found.append(f"sockets grew from {first.sockets} to {last.sockets}")
            if last.rss_kib > first.rss_kib * 1.10:
                found.append(
                    f"RSS grew {last.rss_kib / first.rss_kib - 1:.0%} ({first.rss_kib} -> {last.rss_kib} KiB)"
                )
        elif self.finished:
            found.append("the process was not sampled at request 100 and at the end")
        early, late = (
            self.gap_ms(CHECKPOINT, 2 * CHECKPOINT),
            self.gap_ms(self.requests - CHECKPOINT, self.requests),
        )
        if self.requests > 2 * CHECKPOINT and late > early * 1.5 + 2.0:
            found.append(f"time per request grew from {early:.1f} ms to {late:.1f} ms")
        if self.connections > 2:
            found.append(f"{self.connections} connections opened (keep-alive should serve the session)")
        return found

    def line(self) -> str:
        head = f"{self.mode:<14} {self.served}/{self.requests} requests in {self.seconds:.1f}s"
        if len(self.samples) == 2:
            first, last = self.samples
            head += (
                f"; fds {first.fds}->{last.fds}, sockets {first.sockets}->{last.sockets}, "
                f"RSS {first.rss_kib / 1024:.1f}->{last.rss_kib / 1024:.1f} MiB"
            )
            spent = (last.cpu_seconds - first.cpu_seconds) * 1000 / max(1, last.request - first.request)
            head += f", CPU {spent:.1f} ms/request"
        late = self.gap_ms(self.requests - CHECKPOINT, self.requests)
        head += f"; ms/request {self.gap_ms(CHECKPOINT, 2 * CHECKPOINT):.1f} -> {late:.1f}"
        return head + f"; {self.connections} connection(s)"


def sample(pid: int, request: int) -> Sample:
    """The file descriptors, sockets and RSS of process ``pid`` now."""
    fds = sockets = 0
    folder = f"/proc/{pid}/fd"
    for name in os.listdir(folder):
        fds += 1
        with contextlib.suppress(OSError):  # closed since it was listed
            sockets += os.readlink(f"{folder}/{name}").startswith("socket:")
    rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    ticks = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11:13]  # utime, stime
    return Sample(request, fds, sockets, rss, sum(int(t) for t in ticks) / os.sysconf("SC_CLK_TCK"))


class Script:
    """Sequential replies: ``per_prompt - 1`` reads, then the answer, for every prompt."""

    def __init__(self, result: SoakResult, per_prompt: int) -> None:
        self.result = result
        self.per_prompt = per_prompt
        self.pid: int | None = None
        self.read_body = body(API, read_call(1))
        self.answer_body = body(API, answer())

    def __call__(self, request: RecordedRequest, index: int) -> Scripted:
        number = index + 1
        self.result.arrivals.append(time.perf_counter())
        self.result.served = number
        if self.pid is not None and number in (CHECKPOINT, self.result.requests):
            self.result.samples.append(sample(self.pid, number))
        last = number % self.per_prompt == 0
        return Scripted(body=self.answer_body if last else self.read_body, chunked=False)


async def soak(mode: str, requests: int, prompts: int = 4, folder: Path | None = None) -> SoakResult:
    """One process in ``mode`` serving ``requests`` model requests; see the module docstring."""
    result = SoakResult(mode, requests)
    per_prompt = requests // prompts if mode == "rpc" else requests
    if mode == "rpc" and per_prompt * prompts != requests:
        raise ValueError("rpc mode needs requests divisible by prompts")
    script = Script(result, per_prompt)
    start = time.perf_counter()
    async with ReplayServer(script, keep_alive=True) as server:
        with tempfile.TemporaryDirectory(prefix="tau-soak-", dir=folder) as tmp:
            project = TauProject.create(Path(tmp), API, server.url)
            timeout = 60 + requests * 0.5
            runner = {"print": _print, "json": _print, "rpc": _rpc, "tui": _tui, "tui-fullscreen": _tui}[mode]
            try:
                await asyncio.wait_for(runner(project, script, mode, prompts), timeout)
            except TimeoutError:
                result.error = f"still running after {timeout:.0f}s"
            except AssertionError as exc:
                result.error = str(exc)
        result.connections = server.connections
    result.seconds = time.perf_counter() - start
    return result


async def _print(project: TauProject, script: Script, mode: str, prompts: int) -> None:
    args = ["-p", *(("--mode", "json") if mode == "json" else ()), PROMPT]
    process = await asyncio.create_subprocess_exec(
        *project.argv(*args),
        cwd=project.root,
        env=project.env(),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    script.pid = process.pid
    try:
        out, err = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    if process.returncode != 0:
        raise AssertionError(f"exit {process.returncode}: {err.decode(errors='replace').strip()[-300:]}")
    text = out.decode()
    if (ANSWER not in text) if mode == "json" else (text.strip() != ANSWER):
        raise AssertionError(f"the answer was not printed: {text[-200:]!r}")
    script.result.finished = True


async def _rpc(project: TauProject, script: Script, mode: str, prompts: int) -> None:
    client = await RpcClient.start(
        ["--model", MODEL], cwd=project.root, env=project.env(), command=tau_executable()
    )
    script.pid = client.process.pid
    try:
        for number in range(prompts):
            events = await client.prompt_and_wait(
                f"{PROMPT} ({number + 1})", timeout=30 + script.per_prompt * 0.2
            )
            ends = [
                e
                for e in events
                if e.get("type") == "message_end" and e["message"].get("role") == "assistant"
            ]
            if not ends or ANSWER not in str(ends[-1]["message"].get("content")):
                raise AssertionError(f"prompt {number + 1} ended without the answer")
    finally:
        code = await client.close()
    if code != 0:
        raise AssertionError(f"the RPC process exited {code}")
    script.result.finished = True


async def _tmux(socket: Path, *args: str) -> str:
    process = await asyncio.create_subprocess_exec(
        "tmux", "-S", str(socket), *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    return out.decode(errors="replace")


async def _until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen in {timeout:.0f}s")
        await asyncio.sleep(0.1)


async def _tui(project: TauProject, script: Script, mode: str, prompts: int) -> None:
    if shutil.which("tmux") is None:
        raise AssertionError("tmux is not installed")
    socket = project.root.parent / "tmux.sock"
    pid_file = project.root.parent / "tau.pid"
    env = {**project.env(), "TERM": "xterm-256color"}
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    flags = ["--fullscreen"] if mode == "tui-fullscreen" else []
    tau = " ".join(shlex.quote(a) for a in project.argv(*flags, PROMPT))
    command = f"cd {shlex.quote(str(project.root))} && echo $$ > {pid_file} && exec env -i {exports} {tau}"
    await _tmux(socket, "new-session", "-d", "-s", "soak", "-x", "120", "-y", "40", command)
    try:
        await _until(lambda: pid_file.exists() and pid_file.read_text().strip() != "", "start", 10)
        script.pid = int(pid_file.read_text())
        result = script.result
        await _until(lambda: result.served >= result.requests, "every request", 30 + result.requests * 0.5)
        screen = ""
        deadline = time.monotonic() + 20
        while ANSWER not in screen and time.monotonic() < deadline:
            screen = await _tmux(socket, "capture-pane", "-p", "-t", "soak")
            await asyncio.sleep(0.2)
        if ANSWER not in screen:
            raise AssertionError("the TUI never showed the answer")
        await _tmux(socket, "send-keys", "-t", "soak", "C-d")
        await _until(lambda: not Path(f"/proc/{script.pid}").exists(), "the TUI quitting on Ctrl+D", 20)
        result.finished = True
    finally:
        await _tmux(socket, "kill-server")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--prompts", type=int, default=4, help="RPC mode: prompts sent to the one process")
    parser.add_argument("--mode", action="append", choices=MODES, help="default: all of them")
    args = parser.parse_args()
    failed = False
    for mode in args.mode or MODES:
        result = asyncio.run(soak(mode, args.requests, args.prompts))
        problems = result.problems()
        failed = failed or bool(problems)
        print(("ok   " if not problems else "FAIL ") + result.line(), flush=True)
        for problem in problems:
            print(f"     - {problem}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
