"""Large pastes shown as a short marker in the editor and expanded again on submit."""

from __future__ import annotations

import re

MAX_LINES, MAX_CHARS = 10, 1000
_MARKER = re.compile(r"\[paste #(\d+) (?:\+\d+ lines|\d+ chars)\]")


def normalize_newlines(text: str) -> str:
    """``text`` with CR LF and lone CR (how terminals send line breaks in a paste) as LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class PasteStore:
    """Keeps the text behind each marker; a marker the user deletes or edits is simply dropped."""

    def __init__(self) -> None:
        self._pastes: dict[int, str] = {}
        self._next = 1

    def collapse(self, text: str) -> str | None:
        """A marker for ``text`` if it is large (over 10 lines or 1000 characters), else None."""
        lines = text.count("\n") + 1
        if lines <= MAX_LINES and len(text) <= MAX_CHARS:
            return None
        number = self._next
        self._next += 1
        self._pastes[number] = text
        return (
            f"[paste #{number} +{lines} lines]"
            if lines > MAX_LINES
            else f"[paste #{number} {len(text)} chars]"
        )

    def expand(self, text: str) -> str:
        """``text`` with every known marker replaced by its paste."""

        def put_back(match: re.Match[str]) -> str:
            return self._pastes.get(int(match.group(1)), match.group(0))

        return _MARKER.sub(put_back, text)

    def clear(self) -> None:
        self._pastes.clear()
