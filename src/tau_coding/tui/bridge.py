"""The bridge: a session run in a Textual worker, its events posted to the app as messages.

The worker only forwards; the app folds each event into TuiState (O(1)) and repaints what
changed at most once per frame (see ``FrameScheduler``). A run that raises (a programmer
error, never a provider failure, which arrives as data) ends with ``RunFinished.error`` set.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from textual.app import App
from textual.message import Message
from textual.worker import Worker

from tau_agent.content import ImageContent
from tau_agent.events import AgentEvent
from tau_coding.tui.items import RunNotice
from tau_coding.tui.port import ConversationPort

FRAME_SECONDS = 1 / 30  # streaming text needs no more; each frame costs Textual a relayout


class AgentEventMessage(Message):
    def __init__(self, event: AgentEvent | RunNotice) -> None:
        super().__init__()
        self.event = event


class RunFinished(Message):
    def __init__(self, error: str | None = None) -> None:
        super().__init__()
        self.error = error


def start_run(
    app: App[Any], port: ConversationPort, text: str, images: Sequence[ImageContent] = ()
) -> Worker[None]:
    """Run ``port.prompt(text, images)`` in a worker; every event becomes an ``AgentEventMessage``."""
    return start_events(app, lambda: port.prompt(text, images))


def start_events(app: App[Any], events: Callable[[], AsyncIterator[AgentEvent | RunNotice]]) -> Worker[None]:
    """Run ``events()`` (a prompt's, or a run started another way) in a worker, as ``start_run``."""

    async def run() -> None:
        error: str | None = None
        try:
            async for event in events():
                app.post_message(AgentEventMessage(event))
        except Exception as exc:  # shown to the user; the app must survive a broken session
            error = f"{type(exc).__name__}: {exc}"
        app.post_message(RunFinished(error))

    return app.run_worker(run(), name="agent-run", group="run", exit_on_error=False)


class FrameScheduler:
    """Coalesces repaint requests: ``request`` many times, ``paint`` runs once per frame at most.
    ``hold_for_refresh`` keeps paints back until the screen has been drawn once."""

    def __init__(self, app: App[Any], paint: Callable[[], Awaitable[None]]) -> None:
        self._app = app
        self._paint = paint
        self._pending = False  # a paint was asked for
        self._timed = False  # and its timer is set
        self._held = False

    def request(self) -> None:
        self._pending = True
        self._schedule()

    def hold_for_refresh(self) -> None:
        """No paint until Textual's next screen refresh is written: what changed just before
        (Esc's footer) goes out alone, not in a frame that also redraws the streamed answer."""
        if not self._held:
            self._held = True
            self._app.call_after_refresh(self._release)

    def _release(self) -> None:
        self._held = False
        self._schedule()

    def _schedule(self) -> None:
        if self._pending and not self._held and not self._timed:
            self._timed = True
            self._app.set_timer(FRAME_SECONDS, self._run)

    async def _run(self) -> None:
        self._timed = False
        if self._held:  # a timer set before the hold: ``_release`` sets another
            return
        self._pending = False
        await self._paint()
