"""Agent-level retry of a reply that failed after it started (pure; no clock, no I/O).

A provider retries a request only while nothing of the reply has been shown. A reply that
fails later (the connection dropped after some text or inside a tool call's arguments, an
``overloaded`` event mid-stream, a malformed chunk) ends the run with stop reason "error".
``plan_reply_retry`` decides whether such a run is tried again: the failed reply must be
the run's last, its error must read as transient (``is_retryable_error_text``) and be neither
a context overflow (compaction handles that) nor a server's request for a wait longer than
``retry.provider.maxRetryDelayMs``; retrying must be on and attempts left. The delay
follows the HTTP retries' backoff (``RetryPolicy.backoff``) from ``base_delay_ms``.

``RetrySettings`` reads Pi's ``retry.*`` keys: ``enabled``, ``maxRetries`` and
``baseDelayMs`` for these retries, ``provider.timeoutMs``, ``provider.maxRetries`` and
``provider.maxRetryDelayMs`` for the HTTP ones (``provider_policy``, ``idle_timeout``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage
from tau_ai.overflow import is_context_overflow
from tau_ai.retry import RetryPolicy, is_refused_delay, is_retryable_error_text

# Five HTTP retries (1, 2, 4, 8, 16 s) are the whole persistence for a failure before any
# content, as agent-level retries no longer stack on them (agent_retry.py): about as long as
# Pi's silent SDK retries and its agent-level ones together.
DEFAULT_HTTP_POLICY = RetryPolicy(max_retries=5)
DEFAULT_IDLE_TIMEOUT = 300.0  # seconds without a byte before a stream counts as stalled


@dataclass(frozen=True, slots=True)
class RetrySettings:
    """The ``retry`` settings. Agent-level: ``enabled``, ``max_retries``, ``base_delay_ms``,
    ``max_delay_ms`` (the longest backoff). HTTP-level: ``provider_*`` (None: Tau's default)."""

    enabled: bool = True
    max_retries: int = 3
    base_delay_ms: int = 2000
    max_delay_ms: int = 60_000
    provider_timeout_ms: int | None = None
    provider_max_retries: int | None = None
    provider_max_retry_delay_ms: int | None = None

    @classmethod
    def from_settings(cls, get: Callable[[str], Any]) -> RetrySettings:
        """Read ``retry.*`` through ``get`` (a dotted-key lookup); missing keys keep defaults.
        Negative numbers count as 0."""
        default = cls()

        def number(key: str, fallback: int | None) -> int | None:
            value = get(key)
            return fallback if value is None else max(0, int(value))

        enabled = get("retry.enabled")
        return cls(
            enabled=default.enabled if enabled is None else bool(enabled),
            max_retries=number("retry.maxRetries", default.max_retries) or 0,
            base_delay_ms=number("retry.baseDelayMs", default.base_delay_ms) or 0,
            max_delay_ms=number("retry.maxDelayMs", default.max_delay_ms) or 0,
            provider_timeout_ms=number("retry.provider.timeoutMs", None),
            provider_max_retries=number("retry.provider.maxRetries", None),
            provider_max_retry_delay_ms=number("retry.provider.maxRetryDelayMs", None),
        )

    def backoff(self) -> RetryPolicy:
        """The agent-level backoff: ``base_delay_ms`` doubling per attempt, capped at ``max_delay_ms``."""
        return RetryPolicy(
            max_retries=self.max_retries,
            base_delay=self.base_delay_ms / 1000,
            max_delay=max(self.max_delay_ms, self.base_delay_ms) / 1000,
        )

    def provider_policy(self) -> RetryPolicy:
        """The HTTP retry policy. ``provider.maxRetryDelayMs`` caps what a server may ask to wait
        (longer: fail at once); 0 lifts the cap, and the total-wait budget never undercuts it."""
        policy = DEFAULT_HTTP_POLICY
        if self.provider_max_retries is not None:
            policy = dataclasses.replace(policy, max_retries=self.provider_max_retries)
        cap_ms = self.provider_max_retry_delay_ms
        if cap_ms is not None:
            cap = float("inf") if cap_ms == 0 else cap_ms / 1000
            policy = dataclasses.replace(policy, max_server_delay=cap, budget=max(policy.budget, cap))
        return policy

    def idle_timeout(self, default: float) -> float:
        """Seconds to wait for the provider's next bytes: ``provider.timeoutMs``, else ``default``."""
        ms = self.provider_timeout_ms
        return default if not ms else ms / 1000


@dataclass(frozen=True, slots=True)
class ReplyRetry:
    """Retry attempt ``attempt`` of ``max_attempts`` after ``delay`` seconds, because of ``error``."""

    reply: AssistantMessage
    attempt: int
    max_attempts: int
    delay: float
    error: str


def failed_reply(messages: Sequence[AgentMessage]) -> AssistantMessage | None:
    """The run's last reply when it failed: the last message, or the last before the error
    results that closed its tool calls."""
    index = len(messages) - 1
    while index >= 0 and isinstance(messages[index], ToolResultMessage):
        index -= 1
    last = messages[index] if index >= 0 else None
    if isinstance(last, AssistantMessage) and last.stop_reason == "error":
        return last
    return None


def is_transient_failure(reply: AssistantMessage, context_window: int | None) -> bool:
    """A failed reply worth asking again for: transient wording, and not a context overflow."""
    if reply.stop_reason != "error" or not reply.error_message:
        return False
    if is_context_overflow(reply, context_window) or is_refused_delay(reply.error_message):
        return False  # compaction handles an overflow; a server asking for hours means hours
    return is_retryable_error_text(reply.error_message)


def plan_reply_retry(
    messages: Sequence[AgentMessage],
    settings: RetrySettings,
    *,
    retries_made: int,
    context_window: int | None,
    draw: float,
) -> ReplyRetry | None:
    """The next retry of the run that left ``messages``, or None to let its failure stand.

    ``retries_made`` counts the retries already made for this failure; ``draw`` in [0, 1)
    is the jitter's random number.
    """
    if not settings.enabled:
        return None
    reply = failed_reply(messages)
    if reply is None or not is_transient_failure(reply, context_window):
        return None
    attempt = retries_made + 1
    if attempt > settings.max_retries:
        return None
    delay = settings.backoff().backoff(attempt, draw)
    return ReplyRetry(reply, attempt, settings.max_retries, delay, reply.error_message or "")
