"""Compaction planning: how long deciding what to summarise takes, the summarising call excluded.

The session is the synthetic coding session of bench_sessions (user prompt, reply with a
tool call and usage, a tool result of a few hundred bytes, repeated). Measured: context
accounting plus the plan (cut point, history, turn prefix, file lists) over the replayed
context, and the worst case where no reply reports usage so every message is estimated.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bench.bench_sessions import turn_message
from tau_agent.messages import AgentMessage, AssistantMessage, Usage
from tau_coding.session.compaction.context_usage import context_usage
from tau_coding.session.compaction.planner import plan_compaction

TARGET_MS = 50.0  # issue 7: a 10,000-message session planned in under 50 ms


def _messages(n: int, with_usage: bool) -> tuple[list[AgentMessage], list[str | None]]:
    messages = [turn_message(i) for i in range(n)]
    if not with_usage:
        for message in messages:
            if isinstance(message, AssistantMessage):
                message.usage = Usage()
    return messages, [f"e{i:07d}" for i in range(n)]


def plan_ms(n: int, *, with_usage: bool, repeats: int = 5) -> float:
    """Best wall time of context accounting + planning over ``n`` messages."""
    messages, ids = _messages(n, with_usage)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        usage = context_usage(messages, 200_000, system_prompt="You are a coding agent.")
        plan = plan_compaction(messages, ids, keep_recent_tokens=20_000, tokens_before=usage.tokens)
        best = min(best, time.perf_counter() - start)
        assert plan is not None and plan.history
    return best * 1e3


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    n = 1_000 if smoke else 10_000
    return [
        (f"compaction: plan {n} messages", lambda: plan_ms(n, with_usage=True), "ms", TARGET_MS),
        (f"compaction: plan {n} messages, no usage", lambda: plan_ms(n, with_usage=False), "ms", TARGET_MS),
    ]
