"""A batch task file: one JSON object a line, decoded into ``Task`` with msgspec.

A line that does not decode is a ``TaskProblem`` naming its line number; the other lines still
count, so one bad task never stops the batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec


class Task(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One task. Exactly one of ``cwd`` (a folder to copy) or ``repo`` (+ ``ref``) says where it runs;
    with neither, it runs in an empty folder."""

    id: str
    prompt: str
    cwd: str | None = None
    repo: str | None = None
    ref: str | None = None
    model: str | None = None
    tools: list[str] | None = None
    max_turns: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    timeout: float | None = None
    check: str | None = None
    meta: dict[str, Any] | None = None

    @property
    def provider(self) -> str:
        """The provider part of ``model`` (``provider/id``); rate limits are kept per provider."""
        if self.model and "/" in self.model:
            return self.model.split("/", 1)[0]
        return "default"


@dataclass(frozen=True, slots=True)
class TaskProblem:
    line: int
    message: str

    def describe(self, source: str) -> str:
        return f"{source}:{self.line}: {self.message}"


_decoder = msgspec.json.Decoder(Task)


def _invalid(task: Task) -> str | None:
    if not task.id.strip():
        return "id is empty"
    if task.cwd is not None and task.repo is not None:
        return "give cwd or repo, not both"
    if task.ref is not None and task.repo is None:
        return "ref needs repo"
    limits = (
        ("max_turns", task.max_turns),
        ("max_tokens", task.max_tokens),
        ("max_cost", task.max_cost),
        ("timeout", task.timeout),
    )
    for name, value in limits:
        if value is not None and value <= 0:
            return f"{name} must be positive"
    return None


def parse_tasks(data: bytes) -> tuple[list[Task], list[TaskProblem]]:
    """Every decodable task in order, and one problem per bad line (blank lines are skipped).
    A second task with an id already seen is a problem too."""
    tasks: list[Task] = []
    problems: list[TaskProblem] = []
    seen: set[str] = set()
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            task = _decoder.decode(line)
        except msgspec.DecodeError as exc:
            problems.append(TaskProblem(number, f"not a task: {exc}"))
            continue
        problem = _invalid(task)
        if problem is None and task.id in seen:
            problem = f"id {task.id!r} is used by an earlier line"
        if problem is not None:
            problems.append(TaskProblem(number, problem))
            continue
        seen.add(task.id)
        tasks.append(task)
    return tasks, problems


def read_tasks(path: Path) -> tuple[list[Task], list[TaskProblem]]:
    """``parse_tasks`` of the file at ``path`` (OSError as raised)."""
    return parse_tasks(path.read_bytes())


def encode_task(task: Task) -> bytes:
    return msgspec.json.encode(task)


def decode_task(data: bytes) -> Task:
    return _decoder.decode(data)
