"""A clock in the status line: the time, refreshed every 30 seconds while the session is open.

An async ``session_start`` handler starts a task on the session's loop; ``session_shutdown``
stops it. ``CLOCK`` is the seam a test replaces to read a fixed time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tau_coding.extensions import ExtensionAPI, SessionStartEvent, ShutdownEvent

CLOCK: Callable[[], str] = lambda: time.strftime("%H:%M")  # noqa: E731
EVERY = 30.0


def activate(tau: ExtensionAPI) -> None:
    task: asyncio.Task[None] | None = None

    async def tick() -> None:
        while True:
            tau.set_status("clock", f"🕒 {CLOCK()}")
            await asyncio.sleep(EVERY)

    @tau.on("session_start")
    async def start(event: SessionStartEvent) -> None:
        nonlocal task
        if task is None:
            task = asyncio.get_running_loop().create_task(tick())

    @tau.on("session_shutdown")
    def stop(event: ShutdownEvent) -> None:
        if task is not None:
            task.cancel()
