"""AgentRetry: the retries of one prompt, agent-level and HTTP, as the session reports them.

It counts the retries made for the current failure (``plan_reply_retry`` decides), waits
out the backoff, and turns retries into ``auto_retry_start``/``auto_retry_end`` events: one
start per attempt, and one end once the outcome is known, so a start..end pair spans every
attempt of a failure, as in Pi. ``cancel`` stops the current wait and every later retry of
the prompt; ``abort_wait`` stops only the wait going on (RPC ``abort_retry``).

The two levels never stack: a reply that failed before any content, after the provider had
already retried its request, is the provider giving up (its retries or its wait budget are
spent), so the session lets it stand instead of starting the same retries again. Stacked, one
refused connection became 16 attempts and a count that started over at 1/3 mid-wait.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence

from tau_agent.cancellation import CancellationToken
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage
from tau_agent.provider import RetryNotice
from tau_agent.session.entries import MessageEntry
from tau_agent.session.log import SessionLog
from tau_coding.session.events import AutoRetryEndEvent, AutoRetryStartEvent
from tau_coding.session.reply_retry import ReplyRetry, RetrySettings, failed_reply, plan_reply_retry

RETRY_CANCELLED = "Retry cancelled"


class AgentRetry:
    def __init__(self, settings: RetrySettings, rng: Callable[[], float] = random.random) -> None:
        self.settings = settings
        self.retries_made = 0
        self.notice: RetryNotice | None = None  # a retry (HTTP or agent-level) awaiting its outcome
        self._rng = rng
        self._cancelled = False
        self._waiting: CancellationToken | None = None
        self._provider_retried = False  # the provider retried the current reply's request

    def begin_prompt(self) -> None:
        self.retries_made = 0
        self._cancelled = False
        self._provider_retried = False

    def plan(self, messages: Sequence[AgentMessage], context_window: int | None) -> ReplyRetry | None:
        """The retry the run that left ``messages`` should get, or None (also once cancelled)."""
        if self._cancelled:
            return None
        if self._provider_retried and _failed_before_content(messages):
            return None
        return plan_reply_retry(
            messages,
            self.settings,
            retries_made=self.retries_made,
            context_window=context_window,
            draw=self._rng(),
        )

    # -- events ---------------------------------------------------------------------------------

    def started(self, notice: RetryNotice) -> AutoRetryStartEvent:
        """A retry is about to be waited for (by the provider, or by ``start``)."""
        self.notice = notice
        return AutoRetryStartEvent(notice.attempt, notice.max_attempts, notice.delay_ms, notice.error_message)

    def provider_started(self, notice: RetryNotice) -> AutoRetryStartEvent:
        """The provider is about to retry the current reply's request itself."""
        self._provider_retried = True
        return self.started(notice)

    def start(self, plan: ReplyRetry) -> AutoRetryStartEvent:
        self.retries_made = plan.attempt
        self._provider_retried = False
        return self.started(
            RetryNotice(plan.attempt, plan.max_attempts, round(plan.delay * 1000), plan.error)
        )

    def reply_ended(
        self, reply: AssistantMessage, messages: Sequence[AgentMessage], context_window: int | None
    ) -> AutoRetryEndEvent | None:
        """At ``reply``'s message_end: the end of the retry going on, unless ``reply`` failed
        and will be retried too."""
        failed = reply.stop_reason in ("error", "aborted")
        if not failed:
            self.retries_made = 0  # the next failure gets every retry again
            self._provider_retried = False
        notice = self.notice
        if notice is None:
            return None
        if failed and self.plan(messages, context_window) is not None:
            return None
        self.notice = None
        return AutoRetryEndEvent(not failed, notice.attempt, reply.error_message if failed else None)

    def gave_up(self, error: str) -> AutoRetryEndEvent | None:
        """The end of the retry going on, when it stops without a reply (cancelled, refused)."""
        notice, self.notice = self.notice, None
        return None if notice is None else AutoRetryEndEvent(False, notice.attempt, error)

    # -- waiting --------------------------------------------------------------------------------

    async def wait(self, delay: float) -> bool:
        """Sleep ``delay`` seconds; False at once when cancelled or the wait is aborted."""
        if self._cancelled:
            return False
        token = self._waiting = CancellationToken()
        waiter = asyncio.ensure_future(token.wait())
        try:
            await asyncio.wait([waiter], timeout=delay)
        finally:
            waiter.cancel()
            self._waiting = None
        return not token.cancelled and not self._cancelled

    def cancel(self) -> None:
        """No more retries for this prompt; a wait going on ends now."""
        self._cancelled = True
        self.abort_wait()

    def abort_wait(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel(RETRY_CANCELLED)


def _failed_before_content(messages: Sequence[AgentMessage]) -> bool:
    reply = failed_reply(messages)
    return reply is not None and not reply.content


def step_back_over(log: SessionLog, reply: AssistantMessage) -> bool:
    """Move the log's leaf to before ``reply`` and the results that closed its calls (they stay
    in the file, on a side branch). False when the leaf is not there (nothing is moved)."""
    entry = log.tree.get(log.leaf_id) if log.leaf_id is not None else None
    while isinstance(entry, MessageEntry) and isinstance(entry.message, ToolResultMessage):
        entry = log.tree.get(entry.parent_id) if entry.parent_id is not None else None
    if not isinstance(entry, MessageEntry) or entry.message is not reply:
        return False
    log.navigate(entry.parent_id)
    return True
