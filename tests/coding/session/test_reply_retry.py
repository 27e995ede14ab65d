"""plan_reply_retry and RetrySettings: which failed replies are retried, when, and how often."""

from __future__ import annotations

import math
from typing import Any

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage
from tau_ai.retry import delay_refused_text
from tau_coding.config.settings import Settings
from tau_coding.session.reply_retry import DEFAULT_HTTP_POLICY, RetrySettings, failed_reply, plan_reply_retry


def _failed(error: str, *, calls: int = 0, reason: str = "error") -> AssistantMessage:
    content: list[Any] = [TextContent("partial")]
    content += [ToolCall(f"c{i}", "read", {}) for i in range(calls)]
    return AssistantMessage(content=content, stop_reason=reason, error_message=error)  # type: ignore[arg-type]


def _plan(messages: list[AgentMessage], settings: RetrySettings | None = None, made: int = 0) -> Any:
    return plan_reply_retry(
        messages, settings or RetrySettings(), retries_made=made, context_window=100_000, draw=0.0
    )


def test_a_transient_failure_is_retried_with_doubling_delays() -> None:
    messages: list[AgentMessage] = [UserMessage("q"), _failed("HTTP 529: overloaded")]
    delays = [_plan(messages, made=n).delay for n in range(3)]
    assert delays == [2.0, 4.0, 8.0]  # Pi's 2s, 4s, 8s from baseDelayMs 2000
    plan = _plan(messages, made=2)
    assert (plan.attempt, plan.max_attempts, plan.error) == (3, 3, "HTTP 529: overloaded")
    assert _plan(messages, made=3) is None


def test_jitter_only_shortens_the_wait() -> None:
    messages: list[AgentMessage] = [UserMessage("q"), _failed("overloaded")]
    plan = plan_reply_retry(messages, RetrySettings(), retries_made=0, context_window=None, draw=0.99)
    assert plan is not None and 1.5 <= plan.delay < 2.0


def test_what_is_not_retried() -> None:
    user = UserMessage("q")
    assert _plan([user, _failed("HTTP 401: bad key")]) is None
    assert _plan([user, _failed("prompt is too long: 300000 tokens > 200000 maximum")]) is None
    assert _plan([user, _failed("Operation aborted", reason="aborted")]) is None
    assert _plan([user, _failed(delay_refused_text("HTTP 429: quota exhausted", 18_000))]) is None
    assert _plan([user, _failed("overloaded")], RetrySettings(enabled=False)) is None
    assert _plan([user, _failed("overloaded")], RetrySettings(max_retries=0)) is None
    done = AssistantMessage(content=[TextContent("fine")], stop_reason="stop")
    assert _plan([user, done]) is None
    assert _plan([]) is None


def test_the_failed_reply_is_found_behind_the_results_that_closed_its_calls() -> None:
    reply = _failed("stream ended unexpectedly", calls=2)
    closing = [ToolResultMessage(f"c{i}", "read", [TextContent("x")], is_error=True) for i in range(2)]
    messages: list[AgentMessage] = [UserMessage("q"), reply, *closing]
    assert failed_reply(messages) is reply
    assert _plan(messages).reply is reply


def test_settings_are_read_from_pis_keys() -> None:
    values = {
        "retry": {
            "enabled": False,
            "maxRetries": 7,
            "baseDelayMs": 500,
            "provider": {"timeoutMs": 90_000, "maxRetries": 0, "maxRetryDelayMs": 5_000},
        }
    }
    settings = RetrySettings.from_settings(Settings(values).get)
    assert (settings.enabled, settings.max_retries, settings.base_delay_ms) == (False, 7, 500)
    policy = settings.provider_policy()
    assert policy.max_retries == 0 and policy.max_server_delay == 5.0
    assert settings.idle_timeout(300.0) == 90.0
    assert RetrySettings().idle_timeout(300.0) == 300.0
    assert RetrySettings().provider_policy() == DEFAULT_HTTP_POLICY


def test_a_zero_retry_delay_cap_lifts_the_cap_and_the_budget() -> None:
    policy = RetrySettings(provider_max_retry_delay_ms=0).provider_policy()
    assert math.isinf(policy.max_server_delay) and math.isinf(policy.budget)
    long_cap = RetrySettings(provider_max_retry_delay_ms=600_000).provider_policy()
    assert long_cap.max_server_delay == 600.0 and long_cap.budget >= 600.0
