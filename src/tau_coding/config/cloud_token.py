"""Cloud sign-in tokens that stay valid through a long session (Azure Entra ID, Google ADC).

A ``RefreshingKey`` holds the key a fetch gave (``"Bearer <token>"``) and when it expires. ``get``
fetches again when none is held, when the held one expires within ``margin`` seconds (a
request must not set out with a token that dies on the way), or after ``invalidate`` (the
server answered 401). A token whose expiry is unknown is kept until invalidated; one with
``expires_at=REREAD`` (a file another program keeps fresh) is fetched again on every ``get``.
Thread-safe: requests ask for it from worker threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

MARGIN = 300.0
REREAD = 0.0


@dataclass(frozen=True, slots=True)
class Token:
    """A key and its expiry (seconds since the epoch; None: unknown)."""

    value: str
    expires_at: float | None = None


def as_token(value: str | Token) -> Token:
    return value if isinstance(value, Token) else Token(value)


class RefreshingKey:
    def __init__(
        self,
        fetch: Callable[[], Token | None],
        *,
        clock: Callable[[], float] = time.time,
        margin: float = MARGIN,
    ) -> None:
        self._fetch = fetch
        self._clock = clock
        self._margin = margin
        self._token: Token | None = None
        self._fetched = False
        self._lock = threading.Lock()

    def _stale(self) -> bool:
        if not self._fetched:
            return True
        token = self._token
        if token is None or token.expires_at is None:
            return False
        return token.expires_at - self._margin <= self._clock()

    def get(self) -> str | None:
        """The current key (fetched again when stale); None when the platform is not set up."""
        with self._lock:
            if self._stale():
                self._token = self._fetch()
                self._fetched = True
            return self._token.value if self._token is not None else None

    def invalidate(self) -> None:
        """Forget the held key: the next ``get`` fetches a new one."""
        with self._lock:
            self._fetched = False
