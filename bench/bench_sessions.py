"""Session files: open + replay of big sessions, and the cost of one append.

Linear sessions (no compaction) are the worst case: replay turns every entry into a context
message. Compacted ones are the usual shape of a long session: replay keeps only the
entries after the latest compaction. Each turn is a user prompt, an assistant reply with text and one tool call
(with usage), and a tool result of a few hundred bytes, as in a coding session.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AgentMessage, AssistantMessage, Cost, ToolResultMessage, Usage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog

_DIRS: list[Path] = []


def _dir() -> Path:
    """One scratch folder per bench run, removed when the process exits."""
    if not _DIRS:
        _DIRS.append(Path(tempfile.mkdtemp(prefix="tau-bench-sessions-")))
        atexit.register(shutil.rmtree, _DIRS[0], True)
    return _DIRS[0]


_RESULT = "def handler(event):\n    return process(event)  # line of a file the tool read\n" * 5


def turn_message(i: int) -> AgentMessage:
    """The i-th message of a synthetic coding session."""
    kind = i % 3
    if kind == 0:
        return UserMessage(f"Please look at src/module_{i}.py and fix the failing test {i}.")
    if kind == 1:
        return AssistantMessage(
            content=[
                TextContent("Let me read the file first."),
                ToolCall(f"call_{i}", "read", {"path": f"src/module_{i}.py"}),
            ],
            api="openai-completions",
            provider="openai",
            model="gpt-4o",
            usage=Usage(1200, 40, 800, 0, 0, 2040, Cost(0.003, 0.0004, 0.0002, 0.0, 0.0036)),
            stop_reason="toolUse",
        )
    return ToolResultMessage(f"call_{i - 1}", "read", [TextContent(_RESULT)])


def make_session(n: int, path: Path | None = None, compact_every: int = 0) -> Path:
    """A session file of ``n`` entries (cached per shape inside one bench run). With
    ``compact_every``, every that many entries one is a compaction keeping the last 100."""
    target = path or _dir() / f"linear-{n}-{compact_every}.jsonl"
    if target.exists():
        return target
    log = SessionLog(JsonlSessionStorage.create(target, SessionHeader.new("/work/project"), fsync="never"))
    ids: list[str] = []
    for i in range(n):
        if compact_every and i % compact_every == compact_every - 1:
            log.append_compaction("What happened so far, in a paragraph.", ids[-100], 150_000)
        else:
            ids.append(log.append_message(turn_message(len(ids))).id)
    log.close()
    return target


def open_replay_seconds(n: int, repeats: int = 3, compact_every: int = 0) -> float:
    """Best wall time to open a session of ``n`` entries (locked, writable) and replay it."""
    path = make_session(n, compact_every=compact_every)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        log = SessionLog(JsonlSessionStorage.open(path))
        state = log.state()
        best = min(best, time.perf_counter() - start)
        log.close()
        assert len(state.messages) == (n if not compact_every else len(state.messages)) > 0
    return best


def append_cost_us(n: int, at: int = 0) -> float:
    """Microseconds per appended message entry, measured over ``n`` appends to a session that
    already holds ``at`` entries (compare at=0 with at=100_000: the cost must stay flat)."""
    path = _dir() / f"append-{n}-{at}-{time.monotonic_ns()}.jsonl"
    if at:
        path.write_bytes(make_session(at).read_bytes())
        log = SessionLog(JsonlSessionStorage.open(path, fsync="never"))
    else:
        log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/work/project"), fsync="never"))
        log.append_message(turn_message(1))  # creates the file
    messages = [turn_message(i) for i in range(n)]
    start = time.perf_counter()
    for message in messages:
        log.append_message(message)
    elapsed = time.perf_counter() - start
    log.close()
    path.unlink()
    return elapsed / n * 1e6


def list_seconds(count: int, turns: int = 10, repeats: int = 3) -> float:
    """Best wall time to list ``count`` sessions of ``turns`` user/assistant/tool turns each."""
    from tau_coding.session.store.listing import list_sessions

    folder = _dir() / f"list-{count}"
    if not folder.exists():
        folder.mkdir()
        template = make_session(turns * 3, _dir() / f"small-{turns}.jsonl").read_bytes()
        for i in range(count):
            (folder / f"2025-01-01T00-00-00-000Z_{i:08d}.jsonl").write_bytes(template)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        found = list_sessions(folder)
        best = min(best, time.perf_counter() - start)
        assert len(found) == count
    return best


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    """Targets: the issue's 0.5 s for 100k entries; Pi resumes 10k entries in +0.16 s and 100k
    in +8.7 s (anchors-measured.md)."""
    sizes = (1_000, 10_000) if smoke else (10_000, 100_000)
    targets = {10_000: 100.0, 100_000: 500.0}
    out: list[tuple[str, Callable[[], float], str, float | None]] = [
        (
            f"sessions: open + replay {n} entries",
            lambda n=n: open_replay_seconds(n) * 1e3,
            "ms",
            targets.get(n),
        )
        for n in sizes
    ]
    out.append(
        (
            f"sessions: open + replay {sizes[-1]} entries, compacted every 1000",
            lambda: open_replay_seconds(sizes[-1], compact_every=1000) * 1e3,
            "ms",
            None if smoke else 500.0,
        )
    )
    appends = 1_000 if smoke else 10_000
    out.append(
        (
            f"sessions: append, entries 1-{appends}",
            lambda: append_cost_us(appends),
            "us/entry",
            50.0,
        )
    )
    out.append(
        (
            f"sessions: append after {sizes[-1]} entries",
            lambda: append_cost_us(appends, at=sizes[-1]),
            "us/entry",
            50.0,
        )
    )
    listed = 100 if smoke else 1_000
    out.append((f"sessions: list {listed} sessions", lambda: list_seconds(listed) * 1e3, "ms", 300.0))
    return out
