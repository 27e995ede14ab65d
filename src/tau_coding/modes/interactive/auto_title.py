"""AutoTitler: names an unnamed session after its first exchange, in the background.

After a run, if the session has no name (``/name`` sets one, and a name always wins) and titles
are on (the ``autoTitle`` setting), a task asks the provider's small model for a title
(``session/titles.py``) and, when there is none or it fails, makes one from the first prompt.
The title is stored as the session's name (a ``session_info`` entry, as Pi stores a name), so
the terminal title, the /resume picker and the HTML export show it. Nothing waits for it: the
user's next prompt goes at once, and a failure is logged, never shown as an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence

from tau_agent.content import text_of
from tau_agent.messages import AssistantMessage, UserMessage
from tau_ai.model import Model
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.titles import TitleError, model_title, small_model, title_from_prompt

log = logging.getLogger(__name__)
TIMEOUT_SECONDS = 30.0


class AutoTitler:
    """``session`` is read on each call (a /resume or /new replaces it); ``listeners`` are told
    when a title was stored (the app repaints its footer and the terminal title)."""

    def __init__(
        self,
        session: Callable[[], CodingSession],
        models: Callable[[], Sequence[Model]],
        enabled: Callable[[], bool],
    ) -> None:
        self._session = session
        self._models = models
        self._enabled = enabled
        self._tried: set[str] = set()
        self.task: asyncio.Task[None] | None = None
        self.listeners: list[Callable[[], object]] = []

    def after_run(self) -> None:
        """Start titling the session if it has a first exchange and no name yet."""
        session = self._session()
        if session.log.name or session.session_id in self._tried:
            return
        exchange = first_exchange(session)
        if exchange is None or not self._enabled():
            return
        self._tried.add(session.session_id)
        self.task = asyncio.get_running_loop().create_task(self._title(session, *exchange))

    async def _title(self, session: CodingSession, prompt: str, answer: str) -> None:
        title: str | None = None
        model = small_model(session.model, self._models())
        if model is not None:
            try:
                title = await asyncio.wait_for(
                    model_title(session.provider_for(model), prompt, answer), TIMEOUT_SECONDS
                )
            except (TitleError, TimeoutError) as exc:
                log.info("session title from %s/%s failed: %s", model.provider, model.id, exc)
            except Exception:  # a title must never break the session
                log.exception("session title from %s/%s failed", model.provider, model.id)
        title = title or title_from_prompt(prompt)
        if title is None or session.log.name or session is not self._session():
            return  # /name came first, or the user moved to another session
        try:
            session.set_name(title)
        except Exception:
            log.exception("storing the session title failed")
            return
        for listener in self.listeners:
            listener()

    async def close(self) -> None:
        """Stop a title still being made (the app is closing)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


def first_exchange(session: CodingSession) -> tuple[str, str] | None:
    """The first user prompt and the text of the first answer after it; None until both exist."""
    prompt: str | None = None
    for message in session.messages:
        if prompt is None and isinstance(message, UserMessage):
            prompt = text_of(message.content, image="[image]")
        elif prompt is not None and isinstance(message, AssistantMessage) and message.stop_reason != "error":
            return prompt, message.text
    return None
