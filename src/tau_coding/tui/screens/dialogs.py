"""Questions and notices from outside the TUI (extensions), shown as the app's own dialogs.

Each ``ask_*`` pushes a modal screen and waits for the person's answer; it must be awaited on
the app's event loop (extension handlers run inside the session's prompt worker, which is).
Each dialog's screen is imported when first asked for, not when the TUI starts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen


class TuiDialogs:
    """``asking`` is told just before a question appears (the app holds back keys typed for its
    editor: key_guard.py); ``waited`` hears how long (seconds) each waited for the answer."""

    def __init__(
        self,
        app: App[Any],
        waited: Callable[[float], object] | None = None,
        asking: Callable[[], object] | None = None,
    ) -> None:
        self._app = app
        self._waited = waited
        self._asking = asking

    async def _ask(self, screen: Screen[Any]) -> Any:
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(value: Any) -> None:
            if not answer.done():
                answer.set_result(value)

        asked = time.monotonic()
        if self._asking is not None:
            self._asking()
        try:
            await self._app.push_screen(screen, done)
            return await answer
        finally:
            if self._waited is not None:
                self._waited(time.monotonic() - asked)

    async def show_screen(self, screen: Screen[Any]) -> Any:
        """An extension's own screen, until it is dismissed; the value it was dismissed with."""
        return await self._ask(screen)

    async def ask_confirm(self, title: str, message: str) -> bool:
        from tau_coding.tui.screens.confirm_dialog import ConfirmDialog

        return bool(await self._ask(ConfirmDialog(title, message)))

    async def ask_choice(self, title: str, options: Sequence[str]) -> str | None:
        from tau_coding.tui.screens.choice_picker import ChoicePicker

        chosen = await self._ask(ChoicePicker(title, options))
        return chosen if isinstance(chosen, str) else None

    async def ask_text(self, title: str) -> str | None:
        from tau_coding.tui.screens.text_prompt import TextPrompt

        text = await self._ask(TextPrompt(title))
        return text if isinstance(text, str) else None

    def notify(self, message: str, level: Literal["information", "warning", "error"] = "information") -> None:
        self._app.notify(message, severity=level, markup=False)
