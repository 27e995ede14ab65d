"""A batch of scripted tasks: a local model server that answers each task by the number in its
prompt (first a ``write`` of ``answer.txt``, then a final text), and the files ``tau batch`` reads.

The server counts requests in flight per moment, so a test can see a concurrency limit hold.
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.e2e.scripted_project import MODEL, Project

API = "openai-completions"
TAU = (sys.executable, "-m", "tau_coding")


def _number(body: dict[str, Any]) -> int:
    for message in body["messages"]:
        if message["role"] == "user":
            found = re.search(r"task (\d+)", json.dumps(message["content"]))
            if found:
                return int(found.group(1))
    raise AssertionError(f"no task number in {body}")


@dataclass
class TaskServer:
    """Replies to task N: write answer.txt with ``N*N``, then say ``answer N``."""

    delay: float = 0.0
    slow_task: int | None = None  # this task's first reply stalls ``slow_delay`` seconds
    slow_delay: float = 0.0
    requests: list[tuple[int, float]] = field(default_factory=list)  # (task number, arrival time)

    def respond(self, request: RecordedRequest, index: int) -> Scripted:
        body = request.json()
        number = _number(body)
        self.requests.append((number, time.monotonic()))
        answered = body["messages"][-1]["role"] == "tool"
        if answered:
            reply = ScriptedReply(text=f"answer {number}", input_tokens=100, output_tokens=20)
        else:
            call = ScriptedCall(
                f"call_{number:09d}", "write", {"path": "answer.txt", "content": f"{number * number}\n"}
            )
            reply = ScriptedReply(calls=[call], input_tokens=100, output_tokens=20)
        delay = self.delay
        if number == self.slow_task and not answered and [n for n, _ in self.requests].count(number) == 1:
            delay = self.slow_delay
        return Scripted(body=sse_body(API, reply), delay=delay, chunk_size=64 if delay else None)

    def server(self) -> ReplayServerThread:
        return ReplayServerThread(self.respond)

    def tasks_at_once(self) -> int:
        """The most tasks whose requests overlapped: each task spans its first to last request."""
        spans: dict[int, list[float]] = {}
        for number, at in self.requests:
            spans.setdefault(number, [at, at])[1] = at
        edges = sorted([(a, 1) for a, _ in spans.values()] + [(b, -1) for _, b in spans.values()])
        most = current = 0
        for _, step in edges:
            current += step
            most = max(most, current)
        return most


def write_tasks(path: Path, count: int, *, source: Path | None = None, **extra: Any) -> list[dict[str, Any]]:
    tasks = []
    for n in range(count):
        task: dict[str, Any] = {"id": f"t{n:03d}", "prompt": f"Solve task {n}.", "model": MODEL}
        if source is not None:
            task["cwd"] = str(source)
        task["check"] = f'test "$(cat answer.txt)" = {n * n}'
        task.update(extra)
        tasks.append(task)
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return tasks


def batch_project(tmp_path: Path, url: str) -> Project:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    project = Project(root, tmp_path / "home", API)
    project.configure(url)
    return project


def read_results(path: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        out[record["id"]] = record
    return out


def wait_for(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False
