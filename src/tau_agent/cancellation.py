"""CancellationToken: cooperative cancellation shared by a run, its provider and its tools.

Cancelling never kills a task; whoever holds the token checks ``cancelled``, awaits
``wait()`` beside its work, or registers a callback (an HTTP client closes its response).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class CancellationToken:
    __slots__ = ("_callbacks", "_event", "_reason")

    def __init__(self) -> None:
        self._reason: str | None = None
        self._callbacks: list[Callable[[], None]] = []
        self._event: asyncio.Event | None = None

    @property
    def cancelled(self) -> bool:
        return self._reason is not None

    @property
    def reason(self) -> str | None:
        return self._reason

    def cancel(self, reason: str = "Operation aborted") -> None:
        """Mark cancelled and run callbacks once; later calls do nothing."""
        if self._reason is not None:
            return
        self._reason = reason
        if self._event is not None:
            self._event.set()
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` on cancellation (at once if already cancelled); returns an unregister."""
        if self._reason is not None:
            callback()
            return lambda: None
        self._callbacks.append(callback)

        def unregister() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return unregister

    async def wait(self) -> None:
        """Return once cancelled."""
        if self._event is None:
            self._event = asyncio.Event()
            if self._reason is not None:
                self._event.set()
        await self._event.wait()
