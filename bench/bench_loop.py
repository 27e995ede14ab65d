"""Loop overhead with the FakeProvider: streaming cost per delta, and cost per tool round trip."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, UserMessage
from tau_agent.testing import FakeProvider, call, deltas, reply
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate


async def _drain(config: LoopConfig) -> int:
    messages: list[AgentMessage] = []
    count = 0
    async for _ in run_agent_loop([UserMessage("go")], messages, config):
        count += 1
    return count


def _time_run(config_factory: Any, repeats: int) -> float:
    """Best time of ``repeats`` runs in one event loop (starting a loop per run would add
    more noise than a short run takes)."""

    async def best_of() -> float:
        best = float("inf")
        for _ in range(repeats):
            config = config_factory()
            start = time.perf_counter()
            await _drain(config)
            best = min(best, time.perf_counter() - start)
        return best

    return asyncio.run(best_of())


def stream_delta_cost(n: int, repeats: int = 3) -> float:
    """Microseconds of loop + fake-provider work per streamed text delta (fixed run cost removed).
    Short streams are run more often, so that the difference measured is not all noise."""
    pieces = ["tok "] * n
    repeats = max(repeats, 20_000 // n)

    def make(count: int) -> LoopConfig:
        return LoopConfig(provider=FakeProvider([reply(deltas(pieces[:count]))]))

    base = _time_run(lambda: make(1), repeats)
    full = _time_run(lambda: make(n), repeats)
    return max(full - base, 0.0) / max(n - 1, 1) * 1e6


async def _noop(
    tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
) -> AgentToolResult:
    return AgentToolResult.text("ok")


NOOP = AgentTool(
    name="noop",
    description="Does nothing.",
    parameters={"type": "object", "properties": {"n": {"type": "integer"}}},
    execute=_noop,
)


def tool_turn_cost(turns: int, repeats: int = 3) -> float:
    """Microseconds per turn of: a reply asking for one tool, the tool, its result, the next request."""

    def make(count: int) -> LoopConfig:
        provider = FakeProvider([reply("working", call("noop", {"n": 1}))], repeat_last=True)
        return LoopConfig(provider=provider, tools=[NOOP], max_turns=count)

    base = _time_run(lambda: make(1), repeats)
    full = _time_run(lambda: make(turns), repeats)
    return max(full - base, 0.0) / max(turns - 1, 1) * 1e6


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    sizes = (100, 1_000) if smoke else (100, 10_000, 100_000)
    out: list[tuple[str, Any, str, float | None]] = [
        (f"loop: stream, {n} deltas", lambda n=n: stream_delta_cost(n), "us/delta", 2.0) for n in sizes
    ]
    turns = 20 if smoke else 500
    out.append((f"loop: tool round trip, {turns} turns", lambda: tool_turn_cost(turns), "us/turn", 200.0))
    return out
