"""EventDispatcher: agent and session events delivered to extensions' plain handlers off the
session's path.

Events are announced many times a second (every streamed token); calling each extension's
handler through its guard's thread and waiting for it would cost a thread round-trip per
handler per event. Instead ``post`` queues the event (about a microsecond) and one worker
thread calls the handlers in order; ``drain`` waits until all posted events were delivered
(the doors drain when a prompt settles and when the session closes, so a handler's effects
are in place when a prompt's run is over).

Time limits still hold: a handler running past its extension's limit is reported as timed
out, the worker is abandoned to it (a fresh one takes the rest of the queue, that event's
remaining handlers first), and that extension's event handlers are skipped until the hanging
call returns. A handler that raises is reported; the others still run.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from tau_coding.extensions.guard import HandlerFailure

Delivery = tuple[str, Callable[[Any], object], float]  # owner, handler, time limit (seconds)
_Job = tuple[object, Sequence[Delivery]]


class EventDispatcher:
    """One worker thread at a time; see the module docstring."""

    def __init__(self, report: Callable[[HandlerFailure], None]) -> None:
        self._report = report
        self._jobs: deque[_Job] = deque()
        self._cond = threading.Condition()
        self._pending = 0  # jobs posted and not yet fully delivered
        self._generation = 0
        self._worker: threading.Thread | None = None
        # (generation, owner, handler's limit, started at, event, its deliveries, this one's index)
        self._current: tuple[int, str, float, float, object, Sequence[Delivery], int] | None = None
        self.stuck: set[str] = set()

    def post(self, event: object, deliveries: Sequence[Delivery]) -> None:
        """Queue ``event`` for ``deliveries`` (in order); returns at once."""
        with self._cond:
            self._watchdog()
            self._jobs.append((event, deliveries))
            self._pending += 1
            if self._worker is None:
                self._start()
            self._cond.notify()

    def drain(self) -> None:
        """Wait until every posted event was delivered (or its hanging handler timed out)."""
        with self._cond:
            while self._pending:
                self._watchdog()
                if self._pending:
                    self._cond.wait(0.05)

    def _start(self) -> None:
        self._generation += 1
        worker = threading.Thread(
            target=self._work, args=(self._generation,), name="tau-extension-events", daemon=True
        )
        self._worker = worker
        worker.start()

    def _watchdog(self) -> None:
        """Called with the lock held: abandon a worker stuck in a handler past its limit."""
        current = self._current
        if current is None:
            return
        generation, owner, limit, started, event, deliveries, index = current
        if generation != self._generation or time.monotonic() - started <= limit:
            return
        self._current = None
        self.stuck.add(owner)
        self._report(
            HandlerFailure(
                f"extension {owner}: {getattr(event, 'type', 'event')} handler timed out after {limit:g}s",
                timed_out=True,
            )
        )
        self._jobs.appendleft(
            (event, deliveries[index + 1 :])
        )  # the rest of that event's handlers (same pending count)
        self._start()

    def _failed(self, owner: str, event: object, exc: Exception) -> None:
        detail = str(exc) or type(exc).__name__
        kind = getattr(event, "type", "event")
        self._report(
            HandlerFailure(f"extension {owner}: {kind} handler failed: {type(exc).__name__}: {detail}")
        )

    def _work(self, generation: int) -> None:
        while True:
            with self._cond:
                if generation != self._generation:
                    return
                while not self._jobs:
                    self._cond.wait()
                    if generation != self._generation:
                        return
                event, deliveries = self._jobs.popleft()
            # No lock per handler: these assignments are atomic, and the watchdog ignores a
            # ``_current`` of an older generation.
            for index, (owner, handler, limit) in enumerate(deliveries):
                if owner in self.stuck:
                    continue
                self._current = (generation, owner, limit, time.monotonic(), event, deliveries, index)
                try:
                    handler(event)
                except Exception as exc:
                    self._failed(owner, event, exc)
                if generation != self._generation:  # abandoned while in the handler
                    self.stuck.discard(owner)
                    return
            self._current = None
            with self._cond:
                self._pending -= 1
                self._cond.notify_all()
