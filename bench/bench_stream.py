"""Client CPU per streamed text delta of a whole ``tau`` process, for every wire API.

The row of issue 17: ``tau -p`` (or ``--mode json``) against a local scripted server that
streams a reply of n one-character deltas in the API's own format, one HTTP/1.1 chunk per
SSE event as real providers send them. The figure is the CPU time (user + system) of the
tau process itself, read from the kernel's accounting of that child, for n deltas minus a
one-delta run, divided by n - 1: start-up, configuration and the request are the same in
both and cancel out. The server runs in this process, so its work is not counted.

    python -m bench.bench_stream [N] [API ...]     # prints µs/delta per API and mode
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_cli import tau_executable
from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import APIS, ScriptedReply, sse_body

TEXT = "The quick brown fox jumps over the lazy dog.\n"
_EVENT_END = re.compile(rb"\r\n\r\n|\n\n")


def one_char_pieces(n: int) -> list[str]:
    return [TEXT[i % len(TEXT)] for i in range(n)]


def event_offsets(body: bytes) -> list[int]:
    """Byte offsets just after every SSE event (or Bedrock event stream message): sending the
    body split there puts each event in an HTTP chunk of its own."""
    if body[:1] == b"\x00":  # an event stream: each message starts with its length
        offsets, at = [], 0
        while at < len(body):
            at += int.from_bytes(body[at : at + 4], "big")
            offsets.append(at)
        return offsets
    return [m.end() for m in _EVENT_END.finditer(body)]


def scripted_stream(api: str, n: int) -> Scripted:
    body = sse_body(api, ScriptedReply(chunks=one_char_pieces(n)))
    return Scripted(body=body, split_at=event_offsets(body))


@dataclass(frozen=True, slots=True)
class Run:
    cpu: float  # seconds of user + system time of the tau process
    output: bytes


def _clean_env(home: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(HOME=str(home), TAU_HOME=str(home / ".tau"))
    return env


def _child_cpu(argv: list[str], cwd: Path, env: dict[str, str], command: bytes | None) -> Run:
    """Run ``argv`` to its end; with ``command`` (RPC), send it and close stdin at agent_end."""
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if command is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
        )
        assert process.stdout is not None
        if command is None:
            output = process.stdout.read()
        else:
            assert process.stdin is not None
            process.stdin.write(command)
            process.stdin.flush()
            lines = []
            for line in process.stdout:
                lines.append(line)
                if b'"agent_end"' in line:
                    break
            process.stdin.close()
            output = b"".join(lines) + process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            raise RuntimeError(f"tau failed ({code}): {err.read().decode(errors='replace')[-2000:]}")
    return Run(usage.ru_utime + usage.ru_stime, output)


@contextmanager
def _project(api: str, url: str) -> Iterator[tuple[Path, dict[str, str]]]:
    with tempfile.TemporaryDirectory() as tmp:
        root, home = Path(tmp) / "project", Path(tmp) / "home"
        root.mkdir()
        (home / ".tau").mkdir(parents=True)
        provider: dict[str, Any] = {"baseUrl": url, "api": api, "apiKey": "k", "models": [{"id": "m"}]}
        if api in ("google-vertex", "anthropic-vertex"):  # Vertex URLs name a project and location
            provider["compat"] = {"vertexProject": "bench-project", "vertexLocation": "us-central1"}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        yield root, _clean_env(home)


def run_stream(api: str, n: int, mode: str) -> Run:
    """One whole ``tau`` run in ``mode`` (print, json or rpc) streaming n one-char deltas."""
    with ReplayServerThread(scripted_stream(api, n)) as server, _project(api, server.url) as (root, env):
        base = [*tau_executable(), "--model", "local/m", "--no-session", "--no-tools"]
        if mode == "rpc":
            command = json.dumps({"id": "1", "type": "prompt", "message": "go"}) + "\n"
            return _child_cpu([*base, "--mode", "rpc"], root, env, command.encode())
        extra = ["--mode", "json"] if mode == "json" else []
        return _child_cpu([*base, "-p", *extra, "go"], root, env, None)


# The floor: the least a Python client can do with the same stream. One socket, chunked
# framing undone per read, events split on blank lines, each data line decoded with orjson,
# the text written out. No retries, no events, no session: what any design must still pay.
FLOOR = """
import socket, sys, orjson
host, port = sys.argv[1].rsplit("/", 1)[-1].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"POST /v1/chat/completions HTTP/1.1\\r\\nhost: x\\r\\ncontent-length: 2\\r\\n\\r\\n{}")
buf = b""
while b"\\r\\n\\r\\n" not in buf:
    buf += s.recv(65536)
rest = buf.split(b"\\r\\n\\r\\n", 1)[1]
from tau_ai.http1_framing import ChunkedDecoder
chunks, pending, out = ChunkedDecoder(), b"", []
data = rest
while True:
    body = pending + chunks.feed(data)
    *events, pending = body.split(b"\\n\\n")
    for event in events:
        line = event[event.rfind(b"data: ") + 6 :]
        if line != b"[DONE]":
            out.append(orjson.loads(line)["choices"][0]["delta"].get("content") or "")
    if chunks.done:
        break
    data = s.recv(262144)
sys.stdout.write("".join(out))
"""


def run_floor(n: int) -> Run:
    """The floor client (above) on the openai-completions stream of n one-char deltas."""
    api = "openai-completions"
    with ReplayServerThread(scripted_stream(api, n)) as server, _project(api, server.url) as (root, env):
        return _child_cpu([sys.executable, "-c", FLOOR, server.url], root, env, None)


def floor_cost(n: int, repeats: int = 3) -> float:
    full = min(run_floor(n).cpu for _ in range(repeats))
    base = min(run_floor(1).cpu for _ in range(repeats))
    return max(full - base, 0.0) / (n - 1) * 1e6


def delta_cost(api: str, n: int, mode: str = "print", repeats: int = 3) -> float:
    """µs of tau's CPU per delta: best of ``repeats`` n-delta runs minus best one-delta run."""
    full = min(run_stream(api, n, mode).cpu for _ in range(repeats))
    base = min(run_stream(api, 1, mode).cpu for _ in range(repeats))
    return max(full - base, 0.0) / (n - 1) * 1e6


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    """A row per wire API and mode (print, json, rpc), goal 5 µs each, and the bare-client floor."""
    n = 2_000 if smoke else 100_000
    repeats = 1 if smoke else 3
    out: list[tuple[str, Any, str, float | None]] = []
    for mode in ("print", "json", "rpc"):
        for api in APIS:
            name = "tau -p" if mode == "print" else f"tau --mode {mode}"
            out.append(
                (
                    f"stream: {name}, {n} one-char deltas, {api}, client CPU",
                    lambda api=api, mode=mode: delta_cost(api, n, mode, repeats),
                    "us/delta",
                    5.0,
                )
            )
    out.append(
        (f"stream: floor, bare Python client, {n} one-char deltas", lambda: floor_cost(n), "us/delta", None)
    )
    return out


def main(argv: Sequence[str]) -> None:
    n = int(argv[0]) if argv else 100_000
    apis = list(argv[1:]) or list(APIS)
    modes = os.environ.get("MODES", "print").split(",")
    for api in apis:
        for mode in modes:
            print(f"{api:24} {mode:6} {delta_cost(api, n, mode):7.2f} us/delta", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
