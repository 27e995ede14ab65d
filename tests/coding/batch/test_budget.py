"""The shared rate budget: tasks per provider at once, and tokens in a sliding window."""

from __future__ import annotations

import asyncio

from tau_coding.batch.budget import AsyncGate, Limits, RateBudget


def test_concurrency_is_per_provider_and_frees_on_release() -> None:
    budget = RateBudget(Limits(concurrency=2))
    assert budget.try_acquire("a", 0) is None
    assert budget.try_acquire("a", 0) is None
    assert budget.try_acquire("a", 0) is not None
    assert budget.try_acquire("b", 0) is None  # another provider has its own slots
    budget.release("a")
    assert budget.try_acquire("a", 0) is None
    assert budget.active("a") == 2


def test_tokens_in_the_window_stop_new_starts_until_they_age_out() -> None:
    budget = RateBudget(Limits(tokens_per_minute=1000, window=60))
    assert budget.try_acquire("p", 0.0) is None
    budget.record("p", 600, 1.0)
    assert budget.try_acquire("p", 2.0) is None  # 600 < 1000: still room
    budget.record("p", 500, 3.0)
    wait = budget.try_acquire("p", 4.0)
    assert wait is not None and abs(wait - 57.0) < 1e-9  # until the 600 of t=1 leave the window
    assert budget.spent_in_window("p", 60.5) == 1100
    assert budget.spent_in_window("p", 61.5) == 500
    assert budget.try_acquire("p", 61.5) is None


def test_async_gate_waits_for_a_free_slot() -> None:
    async def scenario() -> list[str]:
        gate = AsyncGate(Limits(concurrency=1))
        order: list[str] = []

        async def task(name: str) -> None:
            await gate.acquire("p")
            order.append(f"{name} in")
            await asyncio.sleep(0.05)
            order.append(f"{name} out")
            await gate.release("p")

        await asyncio.gather(task("x"), task("y"))
        return order

    order = asyncio.run(scenario())
    assert order in (["x in", "x out", "y in", "y out"], ["y in", "y out", "x in", "x out"])
