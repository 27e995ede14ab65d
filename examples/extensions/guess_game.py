"""A small game on a screen of its own: ``/guess`` opens it, guess the number from 1 to 9.

``tau.ui.custom(make_screen)`` pushes a full Textual screen and returns what it was
dismissed with. Writing one: subclass ``textual.screen.Screen[T]``, draw in ``compose``,
react in ``on_key``, and ``self.dismiss(value)`` when done. Textual is imported only when the
screen is made (in the TUI); print mode answers None at once.
"""

from __future__ import annotations

import random
from typing import Any

from tau_coding.extensions import ExtensionAPI

SECRET: list[int] = []  # the seam a test sets; empty: a random number each game


def make_screen() -> Any:
    from textual import events
    from textual.app import ComposeResult
    from textual.screen import Screen
    from textual.widgets import Static

    class GuessScreen(Screen[int]):
        DEFAULT_CSS = "GuessScreen { align: center middle; } #board { width: 40; border: round $accent; }"

        def __init__(self) -> None:
            super().__init__()
            self.secret = SECRET[0] if SECRET else random.randint(1, 9)
            self.tries = 0

        def compose(self) -> ComposeResult:
            yield Static("Guess my number (1-9), Esc gives up", id="board")

        def on_key(self, event: events.Key) -> None:
            if event.key == "escape":
                self.dismiss(0)
                return
            if not event.key.isdigit():
                return
            self.tries += 1
            guess = int(event.key)
            if guess == self.secret:
                self.dismiss(self.tries)
                return
            hint = "higher" if guess < self.secret else "lower"
            self.query_one("#board", Static).update(f"{guess}? {hint}! (try {self.tries})")

    return GuessScreen()


def activate(tau: ExtensionAPI) -> None:
    async def guess(args: str) -> str:
        tries = await tau.ui.custom(make_screen)
        if tries is None:
            return "the guessing game needs the TUI"
        return "gave up" if tries == 0 else f"guessed it in {tries} {'try' if tries == 1 else 'tries'}"

    tau.register_command("guess", guess, description="a guessing game on its own screen")
