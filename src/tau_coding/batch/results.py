"""The results file: one JSON line per finished task, appended atomically, read back to resume.

Each line is written with a single ``write`` on a file opened for appending and then fsynced,
so a crash leaves whole lines behind (a torn last line, possible only if the disk fills, is
skipped with a warning when the file is read). A task may have several lines (a retried
failure); the last one is its result.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import msgspec

Status = Literal["done", "failed", "timeout", "error"]
STATUSES: tuple[Status, ...] = ("done", "failed", "timeout", "error")


class Tokens(msgspec.Struct, frozen=True):
    input: int = 0
    output: int = 0
    total: int = 0


class TaskResult(msgspec.Struct, frozen=True):
    """What became of one task. ``passed`` is the check's verdict (None without a check)."""

    id: str
    status: Status
    passed: bool | None = None
    turns: int = 0
    tokens: Tokens = msgspec.field(default_factory=Tokens)
    cost: float = 0.0
    wall_time: float = 0.0
    final_text: str = ""
    session_file: str | None = None
    diff: str = ""
    error: str | None = None
    attempts: int = 1
    meta: dict[str, Any] | None = None


class _Seen(msgspec.Struct):
    """The two fields a resume needs; msgspec skips the rest (diffs, texts) without building them."""

    id: str
    status: str


_encoder = msgspec.json.Encoder()
_seen_decoder = msgspec.json.Decoder(_Seen)
_result_decoder = msgspec.json.Decoder(TaskResult)


def encode_result(result: TaskResult) -> bytes:
    return _encoder.encode(result) + b"\n"


def decode_result(line: bytes) -> TaskResult:
    return _result_decoder.decode(line)


class ResultsFile:
    """Appends results to ``path`` (created with its folder); one ``append`` = one whole line on disk."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._ensure_line_start()

    def _ensure_line_start(self) -> None:
        """A file that ends mid-line (a torn write) gets a newline, so the next line is whole."""
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        with open(self.path, "rb") as f:
            f.seek(size - 1)
            if f.read(1) != b"\n":
                os.write(self._fd, b"\n")

    def append(self, result: TaskResult) -> None:
        line = encode_result(result)
        written = os.write(self._fd, line)
        if written != len(line):  # a full disk: say so rather than leave half a line unnoticed
            raise OSError(f"{self.path}: only {written} of {len(line)} bytes written")
        os.fsync(self._fd)

    def close(self) -> None:
        os.close(self._fd)


def latest_statuses(path: Path, warn: Callable[[str], object] | None = None) -> dict[str, str]:
    """Each task id's last status in the results file (empty when there is no file).
    Lines that do not decode are skipped, each with one warning naming its line number."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    statuses: dict[str, str] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            seen = _seen_decoder.decode(line)
        except msgspec.DecodeError as exc:
            if warn is not None:
                warn(f"{path}:{number}: skipped, not a result: {exc}")
            continue
        statuses[seen.id] = seen.status
    return statuses


def read_results(path: Path) -> dict[str, TaskResult]:
    """Each task id's last full result; undecodable lines are skipped."""
    out: dict[str, TaskResult] = {}
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return out
    for line in data.splitlines():
        if line.strip():
            try:
                result = _result_decoder.decode(line)
            except msgspec.DecodeError:
                continue
            out[result.id] = result
    return out
