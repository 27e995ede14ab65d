"""Calling extension code so that it can neither crash nor hang the run.

Every handler call goes through a ``Guard``, one per extension. An async handler is awaited
under ``asyncio.wait_for``. A plain function runs on the extension's own daemon worker
thread, one call at a time, and the caller waits for it at most ``timeout`` seconds: Python
cannot interrupt a running function, but it can stop waiting for one, and a daemon thread
does not keep the process alive at exit. A handler that raises or times out raises
``HandlerFailure`` to the caller, which decides what failure means at that door (a tool-call
gate blocks, an event subscriber is skipped). After a timeout the worker may still be stuck,
so the host unloads the extension.
"""

from __future__ import annotations

import asyncio
import inspect
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tau_coding.extensions.ui import DialogClock

_Job = tuple[Callable[..., Any], tuple[Any, ...], "Future[Any]"]


class HandlerFailure(Exception):
    """A handler raised or ran out of time; ``str()`` is one line naming the extension."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class Guard:
    """Runs one extension's handlers with a time limit; see the module docstring."""

    def __init__(
        self,
        owner: str,
        timeout: float,
        on_background_failure: Callable[[HandlerFailure], None],
        dialogs: DialogClock | None = None,
    ) -> None:
        self.owner = owner
        self.timeout = timeout
        self._dialogs = dialogs  # time a person spends in a dialog is not the handler's
        self._on_background_failure = on_background_failure
        self._jobs: queue.SimpleQueue[_Job | None] | None = None
        self._stuck: Future[Any] | None = None  # a plain-function call that outlived its limit

    @property
    def stuck(self) -> bool:
        """Whether an earlier call is still running past its limit (new calls then fail at once)."""
        if self._stuck is not None and self._stuck.done():
            self._stuck = None
        return self._stuck is not None

    def _submit(self, what: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> Future[Any]:
        if self.stuck:
            raise HandlerFailure(
                f"extension {self.owner}: {what} skipped: an earlier handler is still running"
            )
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            name = f"tau-extension-{self.owner}"
            threading.Thread(target=_work, args=(self._jobs,), name=name, daemon=True).start()
        future: Future[Any] = Future()
        self._jobs.put((fn, args, future))
        return future

    def _failure(self, what: str, exc: BaseException | None) -> HandlerFailure:
        if exc is None:
            return HandlerFailure(
                f"extension {self.owner}: {what} timed out after {self.timeout:g}s", timed_out=True
            )
        detail = str(exc) or type(exc).__name__
        return HandlerFailure(f"extension {self.owner}: {what} failed: {type(exc).__name__}: {detail}")

    async def call(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Await ``fn(*args)`` (sync or async) within the time limit, from async code."""
        try:
            if inspect.iscoroutinefunction(fn):
                return await self._bounded(fn(*args))
            future = self._submit(what, fn, args)
            try:
                result = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), self.timeout)
            except TimeoutError:
                self._stuck = future
                raise
            if inspect.isawaitable(result):  # a plain function that returned a coroutine
                return await asyncio.wait_for(result, self.timeout)
            return result
        except TimeoutError:
            raise self._failure(what, None) from None
        except (asyncio.CancelledError, HandlerFailure):
            raise
        except Exception as exc:
            raise self._failure(what, exc) from exc

    async def _bounded(self, work: Any) -> Any:
        """``wait_for(work, timeout)``, except that time with a dialog open does not count."""
        clock = self._dialogs
        if clock is None:
            return await asyncio.wait_for(work, self.timeout)
        task = asyncio.ensure_future(work)
        waited_before = clock.waited()
        deadline = time.monotonic() + self.timeout
        try:
            while True:
                remaining = deadline + (clock.waited() - waited_before) - time.monotonic()
                if clock.open:
                    remaining = max(remaining, 1.0)  # a person is deciding: look again later
                if remaining <= 0:
                    raise TimeoutError
                done, _ = await asyncio.wait({task}, timeout=remaining)
                if done:
                    return task.result()
        finally:
            if not task.done():
                task.cancel()

    def call_sync(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a plain function within the time limit, from synchronous code.

        A coroutine function cannot be awaited here; it is scheduled on the running loop
        (under the same limit) and ``None`` is returned at once.
        """
        if inspect.iscoroutinefunction(fn):
            self._in_background(what, fn, args)
            return None
        future = self._submit(what, fn, args)
        try:
            result = future.result(self.timeout)
        except TimeoutError:
            self._stuck = future
            raise self._failure(what, None) from None
        except Exception as exc:
            raise self._failure(what, exc) from exc
        if inspect.isawaitable(result):
            self._in_background(what, lambda: result, ())
            return None
        return result

    def _in_background(self, what: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise self._failure(what, RuntimeError("async handler called with no running loop")) from None

        async def run() -> None:
            try:
                await self.call(what, fn, *args)
            except HandlerFailure as failure:
                self._on_background_failure(failure)

        task = loop.create_task(run())
        _background.add(task)
        task.add_done_callback(_background.discard)

    def close(self) -> None:
        """Let the worker thread end (if it is not stuck in a handler)."""
        if self._jobs is not None:
            self._jobs.put(None)
            self._jobs = None


_background: set[asyncio.Task[Any]] = set()


def _work(jobs: queue.SimpleQueue[_Job | None]) -> None:
    while (job := jobs.get()) is not None:
        fn, args, future = job
        if not future.set_running_or_notify_cancel():
            continue
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # handed to the caller, who reports it
            future.set_exception(exc)
