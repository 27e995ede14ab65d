"""The whole CodingSession per tool turn: loop, tools, compaction checks, session log.

The per-turn cost must stay flat as the session grows: everything done before a request is
proportional to what was appended since the last one, not to the length of the record.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_loop import NOOP
from tau_agent.testing import FakeProvider, call, reply
from tau_ai.model import Model
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.store.manager import SessionManager


def _run(turns: int, on_disk: bool) -> float:
    model = Model("m", "fake", "fake", "http://127.0.0.1", context_window=10_000_000)
    provider = FakeProvider([reply("working", call("noop", {"n": 1}))], repeat_last=True)
    with tempfile.TemporaryDirectory() as tmp:
        manager = SessionManager(Path(tmp) / "sessions", tmp, fsync="never")
        session = CodingSession(
            log=manager.new() if on_disk else manager.in_memory(),
            model=model,
            provider_factory=lambda _: provider,
            tools=[NOOP],
            system_prompt="",
            cwd=Path(tmp),
            max_turns=turns,
        )

        async def go() -> None:
            async for _ in session.prompt("go"):
                pass

        start = time.perf_counter()
        asyncio.run(go())
        elapsed = time.perf_counter() - start
        session.close()
    return elapsed


def tool_turn_cost(turns: int, on_disk: bool = True) -> float:
    """Microseconds per tool turn, fixed cost removed (a 10-turn run subtracted)."""
    base = min(_run(10, on_disk) for _ in range(2))
    full = min(_run(turns, on_disk) for _ in range(2))
    return max(full - base, 0.0) / (turns - 10) * 1e6


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    sizes = (50,) if smoke else (100, 1_000)
    return [
        (f"session: tool round trip, {n} turns, on disk", lambda n=n: tool_turn_cost(n), "us/turn", 300.0)
        for n in sizes
    ]
