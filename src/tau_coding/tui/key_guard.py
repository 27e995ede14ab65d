"""Keys typed for the editor never answer a question that appeared under them.

An approval ("run rm -rf build?") opens when the model asks, not when the person does, so it
can open in the middle of a word they are typing for the editor: the next Enter would approve
it unseen. So when a question appears while the person is typing (a key for the editor within
``HOLD_SECONDS``), keys are held back from it until the typing pauses: a key within
``HOLD_SECONDS`` of the question's appearance, or of the key held before it, is kept for the
editor (text and Backspace edit it; Enter, Tab, arrows and the like are dropped), and only a key
after such a pause reaches the question. A question that appears while nobody types, or right
after the person answered another (a reason asked for after "No"), takes keys at once. Esc and
Ctrl+C are never held: they refuse or interrupt, which is safe whenever they land. Browsers
delay their security dialogs' buttons for the same reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable

HOLD_SECONDS = 0.5
PASS_THROUGH = frozenset({"escape", "ctrl+c"})


class KeyGuard:
    """``typed`` for each key the editor's screen gets, ``asking`` when a question is shown,
    ``holds(key)`` for each key while it is."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._typed = float("-inf")  # the last key for the editor
        self._until = float("-inf")  # keys before this are held

    def typed(self) -> None:
        self._typed = self._clock()

    def asking(self) -> None:
        """A question is about to appear: if the person is typing, hold keys until they pause."""
        now = self._clock()
        self._until = now + HOLD_SECONDS if now - self._typed < HOLD_SECONDS else float("-inf")

    def holds(self, key: str) -> bool:
        """Whether ``key`` is kept from the question (each key held extends the hold)."""
        if key in PASS_THROUGH:
            return False
        now = self._clock()
        if now >= self._until:
            return False
        self._until = now + HOLD_SECONDS
        return True


__all__ = ["HOLD_SECONDS", "KeyGuard"]
