"""Session files: open + replay of big sessions, and the cost of one append.

The sessions are linear (no compaction), so replay turns every entry into a context message:
the worst case. Each turn is a user prompt, an assistant reply with text and one tool call
(with usage), and a tool result of a few hundred bytes, as in a coding session.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AgentMessage, AssistantMessage, Cost, ToolResultMessage, Usage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog

_DIR = Path(tempfile.mkdtemp(prefix="tau-bench-sessions-"))
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


def make_session(n: int, path: Path | None = None) -> Path:
    """A session file of ``n`` message entries (cached per size inside one bench run)."""
    target = path or _DIR / f"linear-{n}.jsonl"
    if target.exists():
        return target
    log = SessionLog(JsonlSessionStorage.create(target, SessionHeader.new("/work/project"), fsync="never"))
    for i in range(n):
        log.append_message(turn_message(i))
    log.close()
    return target


def open_replay_seconds(n: int, repeats: int = 3) -> float:
    """Best wall time to open a session of ``n`` entries (locked, writable) and replay it."""
    path = make_session(n)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        log = SessionLog(JsonlSessionStorage.open(path))
        state = log.state()
        best = min(best, time.perf_counter() - start)
        log.close()
        assert len(state.messages) == n, (len(state.messages), n)
    return best


def append_cost_us(n: int, at: int = 0) -> float:
    """Microseconds per appended message entry, measured over ``n`` appends to a session that
    already holds ``at`` entries (compare at=0 with at=100_000: the cost must stay flat)."""
    path = _DIR / f"append-{n}-{at}-{time.monotonic_ns()}.jsonl"
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
