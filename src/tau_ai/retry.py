"""When and how long to wait before asking a provider again (pure; no clock, no randomness).

``plan_retry`` is the one decision: given what failed (an HTTP status and its headers, or a
transport error with neither), how many retries were made and how long was already spent
waiting, it returns the delay before the next attempt, or ``None`` to give up. The caller
supplies the random draw and the current time, so every decision can be tested exactly.

Rules, in order: no more than ``max_retries``; ``x-should-retry: false`` forbids and ``true``
forces; otherwise only transport errors and 408/409/425/429/5xx (529 "overloaded" included)
are retried. A server-requested delay (``retry-after-ms``, then ``retry-after`` in seconds or
as an HTTP date) is used as is, but one longer than ``max_server_delay`` is not waited for:
the caller reports the error at once instead of hanging. Without one, the delay grows
exponentially from ``base_delay`` up to ``max_delay``, minus up to ``jitter`` of itself, so
clients that failed together do not retry together. No delay may take the total waited past
``budget``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

RETRYABLE_STATUSES = frozenset({408, 409, 425, 429})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Retry limits. Times are seconds. ``max_retries=0`` disables retrying."""

    max_retries: int = 3
    base_delay: float = 1.0
    max_delay: float = 30.0
    max_server_delay: float = 60.0
    budget: float = 120.0
    jitter: float = 0.25

    def backoff(self, retry_number: int, draw: float) -> float:
        """The delay before retry ``retry_number`` (1-based) when the server named none.

        ``draw`` is a random number in [0, 1); it removes up to ``jitter`` of the delay.
        """
        exponent = min(max(retry_number - 1, 0), 32)
        delay = min(self.max_delay, self.base_delay * (2.0**exponent))
        return max(0.0, delay * (1.0 - self.jitter * min(max(draw, 0.0), 1.0)))


NO_RETRY = RetryPolicy(max_retries=0)


def is_retryable_status(status: int) -> bool:
    """Statuses worth trying again: timeouts, conflicts, rate limits and server errors (529 too)."""
    return status in RETRYABLE_STATUSES or 500 <= status <= 599


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:
        # Plain dicts are case-sensitive; httpx.Headers is not, and answers above.
        lowered = name.lower()
        for key, item in headers.items():
            if key.lower() == lowered:
                return item
    return value


def should_retry_header(headers: Mapping[str, str]) -> bool | None:
    """The ``x-should-retry`` verdict: True forces a retry, False forbids one, None says nothing."""
    value = _header(headers, "x-should-retry")
    if value is None:
        return None
    value = value.strip().lower()
    if value == "true":
        return True
    if value == "false":
        return False
    return None


def parse_retry_after(headers: Mapping[str, str], now: float) -> float | None:
    """Seconds the server asked us to wait, or None.

    ``retry-after-ms`` (milliseconds) wins over ``retry-after``, which may be seconds (a
    decimal number) or an HTTP date, read relative to ``now`` (Unix seconds). Unreadable or
    negative values are ignored; a date in the past means "now" (0).
    """
    ms = _header(headers, "retry-after-ms")
    if ms is not None:
        seconds = _number(ms)
        if seconds is not None:
            return seconds / 1000.0
    value = _header(headers, "retry-after")
    if value is None:
        return None
    seconds = _number(value)
    if seconds is not None:
        return seconds
    from email.utils import parsedate_to_datetime  # rare, and costly to import at start-up

    try:
        when = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now)


def _number(text: str) -> float | None:
    try:
        value = float(text.strip())
    except ValueError:
        return None
    if value != value or value < 0 or value == float("inf"):
        return None
    return value


def plan_retry(
    policy: RetryPolicy,
    retry_number: int,
    *,
    status: int | None,
    headers: Mapping[str, str],
    waited: float,
    draw: float,
    now: float,
) -> float | None:
    """Seconds to wait before retry ``retry_number`` (1-based), or None to give up.

    ``status`` None means a transport error (connection refused or dropped, timeout, a
    stream that ended before any content), which is retried like a 5xx.
    """
    if retry_number > policy.max_retries:
        return None
    verdict = should_retry_header(headers)
    if verdict is False:
        return None
    if verdict is None and status is not None and not is_retryable_status(status):
        return None
    requested = parse_retry_after(headers, now)
    if requested is not None and requested > policy.max_server_delay:
        return None
    delay = requested if requested is not None else policy.backoff(retry_number, draw)
    if waited + delay > policy.budget:
        return None
    return delay


DELAY_REFUSED = "longer than retry.provider.maxRetryDelayMs allows"


def delay_refused_text(error: str, requested: float) -> str:
    """The error of a request given up because its server asked for too long a wait.

    The wording carries ``DELAY_REFUSED``, by which ``is_refused_delay`` (and so the session's
    agent-level retry) knows not to try again soon either.
    """
    return f"{error} (the server asked to wait {requested:g}s, {DELAY_REFUSED})"


def is_refused_delay(message: str) -> bool:
    return DELAY_REFUSED in message


def refused_delay(policy: RetryPolicy, headers: Mapping[str, str], now: float) -> float | None:
    """The wait a server asked for when it is longer than ``policy.max_server_delay`` (which
    makes ``plan_retry`` give up at once), else None."""
    requested = parse_retry_after(headers, now)
    return requested if requested is not None and requested > policy.max_server_delay else None


@functools.cache
def _retryable_text() -> re.Pattern[str]:
    """Compiled on first use: only a failure needs it, and compiling costs a start-up ~2 ms."""
    return re.compile(
        r"overloaded|rate.?limit|too many requests|resource.?exhausted|service.?unavailable|"
        r"temporarily unavailable|internal.?(?:server.?)?error|server.?error|bad gateway|gateway.?timeout|"
        r"provider.?returned.?error|upstream.?(?:connect|error)|try again|timed? ?out|timeout|"
        r"connection.?(?:reset|lost|closed|error|refused|aborted)|network.?error|"
        r"ended (?:unexpectedly|early|without)|stream stalled|"
        r"malformed (?:data|chunk|event|end of stream)|incomplete chunked read|peer closed|"
        r"remoteprotocolerror|readerror|reset by peer|broken pipe|socket hang up|fetch failed|"
        r"\b(?:http|status|code)[ :=]*(?:408|409|425|429|5\d\d)\b",
        re.IGNORECASE,
    )


def is_retryable_error_text(message: str) -> bool:
    """Whether an error reported as text (no status to go by) reads as transient.

    Used for an error event inside a 200 stream (Anthropic's ``overloaded_error``) and for a
    failed reply as a whole: rate limits, overload, 5xx wording or ``HTTP 5xx`` statuses,
    timeouts and stalls, dropped or refused connections, a stream cut short, malformed data
    from the provider. Not: authentication, bad requests, a context that is too long.
    """
    return bool(_retryable_text().search(message))
