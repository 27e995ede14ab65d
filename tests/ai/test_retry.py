"""The retry policy as a pure function: statuses, headers, backoff, caps and budget."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime

import pytest

from tau_ai.retry import (
    RetryPolicy,
    delay_refused_text,
    is_refused_delay,
    is_retryable_error_text,
    is_retryable_status,
    parse_retry_after,
    plan_retry,
    refused_delay,
    should_retry_header,
)

NOW = 1_700_000_000.0
POLICY = RetryPolicy(
    max_retries=3, base_delay=1.0, max_delay=8.0, max_server_delay=60.0, budget=20.0, jitter=0.5
)


@pytest.mark.parametrize("status", [408, 409, 425, 429, 500, 502, 503, 504, 529])
def test_transient_statuses_are_retryable(status: int) -> None:
    assert is_retryable_status(status)


@pytest.mark.parametrize("status", [200, 400, 401, 403, 404, 413, 422])
def test_client_errors_are_not_retryable(status: int) -> None:
    assert not is_retryable_status(status)


def test_retry_after_seconds_decimal_and_ms() -> None:
    assert parse_retry_after({"retry-after": "7"}, NOW) == 7.0
    assert parse_retry_after({"Retry-After": "1.5"}, NOW) == 1.5
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}, NOW) == 0.25


def test_retry_after_http_date_is_relative_to_now() -> None:
    when = format_datetime(datetime.fromtimestamp(NOW + 12, UTC), usegmt=True)
    assert parse_retry_after({"retry-after": when}, NOW) == pytest.approx(12.0)
    past = format_datetime(datetime.fromtimestamp(NOW - 100, UTC), usegmt=True)
    assert parse_retry_after({"retry-after": past}, NOW) == 0.0


@pytest.mark.parametrize("value", ["soon", "-3", "nan", "inf", ""])
def test_unreadable_retry_after_is_ignored(value: str) -> None:
    assert parse_retry_after({"retry-after": value}, NOW) is None


def test_x_should_retry_header() -> None:
    assert should_retry_header({"x-should-retry": "true"}) is True
    assert should_retry_header({"X-Should-Retry": "FALSE"}) is False
    assert should_retry_header({"x-should-retry": "maybe"}) is None
    assert should_retry_header({}) is None


def test_backoff_doubles_up_to_the_cap_and_jitter_only_shortens() -> None:
    assert [POLICY.backoff(n, 0.0) for n in (1, 2, 3, 4, 5)] == [1.0, 2.0, 4.0, 8.0, 8.0]
    assert POLICY.backoff(3, 0.999) == pytest.approx(4.0 * (1 - 0.5 * 0.999))


def plan(
    retry_number: int = 1,
    status: int | None = 503,
    headers: dict[str, str] | None = None,
    waited: float = 0.0,
) -> float | None:
    return plan_retry(
        POLICY, retry_number, status=status, headers=headers or {}, waited=waited, draw=0.0, now=NOW
    )


def test_plan_uses_backoff_for_transport_errors_and_5xx() -> None:
    assert plan(1, None) == 1.0
    assert plan(2, 503) == 2.0


def test_plan_gives_up_after_max_retries_and_on_client_errors() -> None:
    assert plan(4) is None
    assert plan(1, 400) is None


def test_plan_obeys_x_should_retry_both_ways() -> None:
    assert plan(1, 400, {"x-should-retry": "true"}) == 1.0
    assert plan(1, 503, {"x-should-retry": "false"}) is None


def test_plan_uses_the_server_delay_but_not_beyond_its_cap() -> None:
    assert plan(1, 429, {"retry-after": "12"}) == 12.0
    assert plan(1, 429, {"retry-after": "61"}) is None


def test_plan_respects_the_total_budget() -> None:
    assert plan(1, 429, {"retry-after": "5"}, waited=15.0) == 5.0
    assert plan(1, 429, {"retry-after": "5"}, waited=15.5) is None


def test_disabled_policy_never_retries() -> None:
    assert (
        plan_retry(RetryPolicy(max_retries=0), 1, status=503, headers={}, waited=0, draw=0, now=NOW) is None
    )


@pytest.mark.parametrize(
    "text",
    [
        "Overloaded",
        "Rate limit exceeded",
        "Internal server error",
        "Service Unavailable",
        "HTTP 503: upstream unavailable",
        "HTTP 200: {'type': 'error', 'error': {'type': 'overloaded_error'}}",
        "No data from the provider for 300s; the stream stalled",
        "Connection error: ConnectError: [Errno 111] Connection refused",
        "Connection error: RemoteProtocolError: peer closed connection without sending complete "
        "message body (incomplete chunked read)",
        "stream ended unexpectedly",
        "Provider stream ended without a final message",
        "Malformed data from the provider (Expecting value): {not json",
        "Malformed end of stream (unterminated)",
        "Connection timed out after 15s",
    ],
)
def test_transient_in_stream_errors_are_recognised(text: str) -> None:
    assert is_retryable_error_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "Invalid API key",
        "prompt is too long: 5 tokens > 4 maximum",
        "tool_use_failed",
        "HTTP 401: invalid x-api-key",
        "HTTP 400: messages: roles must alternate",
        "HTTP 404: model not found",
    ],
)
def test_permanent_in_stream_errors_are_not(text: str) -> None:
    assert not is_retryable_error_text(text)


def test_a_refused_server_delay_is_named_and_recognised() -> None:
    headers = {"retry-after": "18000"}
    assert refused_delay(POLICY, headers, NOW) == 18000.0
    assert refused_delay(POLICY, {"retry-after": "5"}, NOW) is None
    assert refused_delay(POLICY, {}, NOW) is None
    text = delay_refused_text("HTTP 429: quota", 18000.0)
    assert text.startswith("HTTP 429: quota (the server asked to wait 18000s") and is_refused_delay(text)
    assert not is_refused_delay("HTTP 429: quota")
