"""Rate limits shared by every worker of a batch: per provider, how many tasks may run at once and
how many tokens may be spent in a sliding window (tokens per minute).

``RateBudget`` is the pure state (the clock is passed in); ``AsyncGate`` serves it to asyncio
workers in one process, and on Ray an actor holds one (``ray_backend``). The budget gates task
starts: a task starts when its provider has a free slot and the tokens spent in the window are
under the budget, and the tokens each reply reports are recorded as they stream in, so a burst
stops new starts at once. A task already running is not paused mid-turn (docs/batch.md).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Limits:
    """``concurrency``: tasks per provider at once; ``tokens_per_minute``: the window's budget."""

    concurrency: int | None = None
    tokens_per_minute: int | None = None
    window: float = 60.0


@dataclass(slots=True)
class _Provider:
    active: int = 0
    spent: deque[tuple[float, int]] = field(default_factory=deque)
    in_window: int = 0


class RateBudget:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._providers: dict[str, _Provider] = {}

    def _state(self, provider: str, now: float) -> _Provider:
        state = self._providers.setdefault(provider, _Provider())
        cutoff = now - self.limits.window
        while state.spent and state.spent[0][0] <= cutoff:
            state.in_window -= state.spent.popleft()[1]
        return state

    def try_acquire(self, provider: str, now: float) -> float | None:
        """Take a slot (None) or say how many seconds to wait before asking again."""
        state = self._state(provider, now)
        limits = self.limits
        if limits.concurrency is not None and state.active >= limits.concurrency:
            return 0.05  # a slot frees when a task ends; ask again soon
        if limits.tokens_per_minute is not None and state.in_window >= limits.tokens_per_minute:
            oldest = state.spent[0][0] if state.spent else now
            return max(0.01, oldest + limits.window - now)
        state.active += 1
        return None

    def release(self, provider: str) -> None:
        state = self._providers.get(provider)
        if state is not None and state.active > 0:
            state.active -= 1

    def record(self, provider: str, tokens: int, now: float) -> None:
        if tokens > 0:
            state = self._state(provider, now)
            state.spent.append((now, tokens))
            state.in_window += tokens

    def spent_in_window(self, provider: str, now: float) -> int:
        return self._state(provider, now).in_window

    def active(self, provider: str) -> int:
        state = self._providers.get(provider)
        return state.active if state is not None else 0


class Gate(Protocol):
    """What a running task asks of the shared budget."""

    async def acquire(self, provider: str) -> None: ...

    async def release(self, provider: str) -> None: ...

    async def record(self, provider: str, tokens: int) -> None: ...


class AsyncGate:
    """A ``RateBudget`` for the tasks of one event loop."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = RateBudget(limits)
        self._clock = clock

    async def acquire(self, provider: str) -> None:
        while (wait := self.budget.try_acquire(provider, self._clock())) is not None:
            await asyncio.sleep(min(wait, 1.0))

    async def release(self, provider: str) -> None:
        self.budget.release(provider)

    async def record(self, provider: str, tokens: int) -> None:
        self.budget.record(provider, tokens, self._clock())


class OpenGate:
    """No limits: every acquire succeeds at once."""

    async def acquire(self, provider: str) -> None:
        return None

    async def release(self, provider: str) -> None:
        return None

    async def record(self, provider: str, tokens: int) -> None:
        return None
