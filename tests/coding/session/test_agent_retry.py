"""A reply that failed after it started is tried again by the session, visibly and once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from tau_agent.events import MessageEndEvent
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import MessageEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.testing import FakeProvider, call, fail
from tau_ai.model import Model
from tau_coding.session.agent_retry import RETRY_CANCELLED
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.events import AgentSettledEvent, AutoRetryEndEvent, AutoRetryStartEvent, SessionEvent
from tau_coding.session.reply_retry import RetrySettings
from tau_coding.session.store.manager import SessionManager

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")
FAST = RetrySettings(base_delay_ms=1, max_retries=3)
CUT = "Connection error: RemoteProtocolError: peer closed connection (incomplete chunked read)"


def _session(tmp_path: Path, provider: FakeProvider, retry: RetrySettings = FAST) -> CodingSession:
    manager = SessionManager(tmp_path / "sessions", str(tmp_path))
    return CodingSession(
        log=manager.new(),
        model=MODEL,
        provider_factory=lambda model: provider,
        tools=[],
        system_prompt="",
        cwd=tmp_path,
        retry=retry,
    )


async def _drain(events: AsyncIterator[SessionEvent]) -> list[SessionEvent]:
    return [e async for e in events]


def _retry_events(events: list[SessionEvent]) -> list[AutoRetryStartEvent | AutoRetryEndEvent]:
    return [e for e in events if isinstance(e, AutoRetryStartEvent | AutoRetryEndEvent)]


def _reopened(session: CodingSession) -> SessionLog:
    path = session.session_file
    assert path is not None
    session.close()
    return SessionLog(JsonlSessionStorage.open(path))


async def test_a_reply_cut_after_text_is_retried_and_answered_once(tmp_path: Path) -> None:
    provider = FakeProvider([fail(CUT, "The answer is"), "The answer is 42."])
    session = _session(tmp_path, provider)
    events = await _drain(session.prompt("question"))

    retries = _retry_events(events)
    assert [type(e) for e in retries] == [AutoRetryStartEvent, AutoRetryEndEvent]
    start, end = retries
    assert isinstance(start, AutoRetryStartEvent) and (start.attempt, start.max_attempts) == (1, 3)
    assert start.error_message == CUT
    assert isinstance(end, AutoRetryEndEvent) and end.success and end.attempt == 1
    assert isinstance(events[-1], AgentSettledEvent)
    # the partial reply is not sent again, and the record holds the answer once
    assert [m.role for m in provider.contexts[1].messages] == ["user"]
    assert [(m.role, getattr(m, "text", None)) for m in session.messages] == [
        ("user", None),
        ("assistant", "The answer is 42."),
    ]
    log = _reopened(session)
    assert [type(m).__name__ for m in log.state().messages] == ["UserMessage", "AssistantMessage"]
    failed = [
        e.message
        for e in log.entries
        if isinstance(e, MessageEntry)
        and isinstance(e.message, AssistantMessage)
        and e.message.stop_reason == "error"
    ]
    assert len(failed) == 1 and failed[0].error_message == CUT and failed[0].text == "The answer is"


async def test_a_failure_outlasting_every_retry_ends_the_run_with_one_final_end(tmp_path: Path) -> None:
    provider = FakeProvider([fail("HTTP 503: overloaded", "partial")], repeat_last=True)
    session = _session(tmp_path, provider, RetrySettings(base_delay_ms=1, max_retries=2))
    events = await _drain(session.prompt("question"))

    retries = _retry_events(events)
    assert [(type(e).__name__, e.attempt) for e in retries] == [
        ("AutoRetryStartEvent", 1),
        ("AutoRetryStartEvent", 2),
        ("AutoRetryEndEvent", 2),
    ]
    end = retries[-1]
    assert (
        isinstance(end, AutoRetryEndEvent) and not end.success and end.final_error == "HTTP 503: overloaded"
    )
    assert provider.calls == 3
    last = session.messages[-1]
    assert isinstance(last, AssistantMessage) and last.stop_reason == "error"
    assert [m.role for m in session.messages] == ["user", "assistant"]
    assert [type(m).__name__ for m in _reopened(session).state().messages] == [
        "UserMessage",
        "AssistantMessage",
    ]


async def test_permanent_failures_and_switched_off_retries_are_not_retried(tmp_path: Path) -> None:
    provider = FakeProvider([fail("HTTP 401: invalid api key", "x"), fail(CUT, "y"), "unused"])
    session = _session(tmp_path, provider)
    assert not _retry_events(await _drain(session.prompt("one")))
    session.set_auto_retry(False)
    assert not session.auto_retry_enabled
    assert not _retry_events(await _drain(session.prompt("two")))
    assert provider.calls == 2


async def test_cancel_during_the_wait_stops_the_retry_at_once(tmp_path: Path) -> None:
    provider = FakeProvider([fail(CUT, "partial"), "never asked"])
    session = _session(tmp_path, provider, RetrySettings(base_delay_ms=60_000))
    seen: list[SessionEvent] = []

    def listener(event: SessionEvent) -> None:
        seen.append(event)
        if isinstance(event, AutoRetryStartEvent):
            session.cancel()

    session.subscribe(listener)
    events = await asyncio.wait_for(_drain(session.prompt("go")), 5)
    end = _retry_events(events)[-1]
    assert isinstance(end, AutoRetryEndEvent) and not end.success and end.final_error == RETRY_CANCELLED
    assert provider.calls == 1 and isinstance(events[-1], AgentSettledEvent)
    last = session.messages[-1]
    assert isinstance(last, AssistantMessage) and last.error_message == CUT  # the failure stands
    assert not session.is_running


async def test_abort_retry_ends_the_wait_and_reports_the_failure(tmp_path: Path) -> None:
    provider = FakeProvider([fail(CUT, "partial"), "never asked"])
    session = _session(tmp_path, provider, RetrySettings(base_delay_ms=60_000))
    run = session.prompt("go")
    events: list[SessionEvent] = []
    async for event in run:
        events.append(event)
        if isinstance(event, AutoRetryStartEvent):
            asyncio.get_running_loop().call_later(0.05, session.abort_retry)
    assert provider.calls == 1
    end = _retry_events(events)[-1]
    assert isinstance(end, AutoRetryEndEvent) and end.final_error == RETRY_CANCELLED


async def test_a_failed_reply_with_tool_calls_is_dropped_with_its_closing_results(tmp_path: Path) -> None:
    provider = FakeProvider(
        [fail("stream ended unexpectedly", "Reading.", call("read", {"path": "a"})), "Done."]
    )
    session = _session(tmp_path, provider)
    events = await _drain(session.prompt("go"))
    closing = [
        e.message
        for e in events
        if isinstance(e, MessageEndEvent) and isinstance(e.message, ToolResultMessage)
    ]
    assert len(closing) == 1 and closing[0].is_error
    assert [m.role for m in provider.contexts[1].messages] == ["user"]
    assert [m.role for m in session.messages] == ["user", "assistant"]
    log = _reopened(session)
    assert [m.role for m in log.state().messages] == ["user", "assistant"]
    side = [e.message for e in log.entries if isinstance(e, MessageEntry)]
    assert sum(isinstance(m, ToolResultMessage) for m in side) == 1  # recorded once, off the path


async def test_the_next_prompt_after_a_retried_run_sees_only_the_answer(tmp_path: Path) -> None:
    provider = FakeProvider([fail(CUT, "half"), "whole", "again"])
    session = _session(tmp_path, provider)
    await _drain(session.prompt("first"))
    await _drain(session.prompt("second"))
    sent = provider.contexts[2].messages
    assert [m.role for m in sent] == ["user", "assistant", "user"]
    assert isinstance(sent[0], UserMessage)
    texts = [m.text for m in sent if isinstance(m, AssistantMessage)]
    assert texts == ["whole"]
