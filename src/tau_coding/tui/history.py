"""The prompt history ring: Up/Down walk back through what was sent, seeded from the session."""

from __future__ import annotations

from collections.abc import Iterable

LIMIT = 100


class PromptHistory:
    """Oldest first; navigation starts past the newest entry and keeps the draft being typed."""

    def __init__(self, entries: Iterable[str] = (), limit: int = LIMIT) -> None:
        self._limit = limit
        self._entries: list[str] = []
        for entry in entries:
            self.add(entry)
        self._pos = len(self._entries)
        self._draft = ""

    @property
    def entries(self) -> list[str]:
        return list(self._entries)

    def add(self, text: str) -> None:
        """Remember a sent prompt (blank ones and immediate repeats are skipped) and reset navigation."""
        if text.strip() and (not self._entries or self._entries[-1] != text):
            self._entries.append(text)
            del self._entries[: -self._limit]
        self._pos = len(self._entries)
        self._draft = ""

    def forget_newest(self, prefix: str) -> None:
        """Drop the newest entry if it starts with ``prefix`` (a command that carried a secret)."""
        if self._entries and self._entries[-1].startswith(prefix):
            self._entries.pop()
        self._pos = len(self._entries)

    def older(self, current: str) -> str | None:
        """The previous entry, or None at the oldest; the first step saves ``current`` as the draft."""
        if self._pos == 0:
            return None
        if self._pos == len(self._entries):
            self._draft = current
        self._pos -= 1
        return self._entries[self._pos]

    def newer(self) -> str | None:
        """The next entry, the saved draft past the newest, or None when not navigating."""
        if self._pos >= len(self._entries):
            return None
        self._pos += 1
        return self._draft if self._pos == len(self._entries) else self._entries[self._pos]
