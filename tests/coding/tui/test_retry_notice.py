"""The TUI shows a retry: the port turns retry events into notices the transcript displays."""

from __future__ import annotations

from pathlib import Path

from tau_agent.event_batch import EventBatch
from tau_agent.events import MessageUpdateEvent
from tau_agent.testing import fail
from tau_coding.session.reply_retry import RetrySettings
from tau_coding.tui.items import ErrorItem, NoticeItem, RunNotice
from tau_coding.tui.state import TuiState, apply
from tests.coding.tui.session_helpers import Rig

CUT = "Connection error: RemoteProtocolError: peer closed connection"


async def test_a_retried_reply_shows_a_retry_notice_then_the_answer(tmp_path: Path) -> None:
    rig = Rig(tmp_path, [fail(CUT, "half an answer"), "The whole answer."])
    rig.control.session.retry.settings = RetrySettings(base_delay_ms=1)
    state = TuiState()
    notices: list[RunNotice] = []
    async for event in rig.port.prompt("question"):
        if isinstance(event, RunNotice):
            notices.append(event)
        apply(state, event, 0.0)
    # The retry's start (a line, and the wait the footer counts down), then its end (no line).
    assert [(n.tone, n.retry_in is not None, n.retry_over) for n in notices] == [
        ("warning", True, False),
        ("warning", False, True),
    ]
    assert CUT in notices[0].text and "retrying in" in notices[0].text and "(1/3)" in notices[0].text
    assert notices[1].text == "" and state.retry_at is None
    # The error is shown once: the failed reply's error says it is being retried (no "send a
    # message to retry", and no second line repeating the error).
    assert not [i for i in state.items if isinstance(i, NoticeItem)]
    (error,) = [i for i in state.items if isinstance(i, ErrorItem)]
    assert CUT in error.message and error.hint.startswith("retrying in") and "(1/3)" in error.hint
    assert rig.control.session.messages[-1].text == "The whole answer."  # type: ignore[union-attr]


def test_a_retry_whose_error_is_not_on_screen_is_a_notice_of_its_own() -> None:
    state = TuiState()
    apply(
        state,
        RunNotice("HTTP 529: overloaded; retrying in 4.0s (1/5)", "warning", retry_in=4.0, recovers=True),
        0.0,
    )
    assert [i.text for i in state.items if isinstance(i, NoticeItem)] == [
        "HTTP 529: overloaded; retrying in 4.0s (1/5)"
    ]


async def test_a_retry_that_gives_up_says_so(tmp_path: Path) -> None:
    rig = Rig(tmp_path, [fail(CUT, "a"), fail(CUT, "b")])
    rig.control.session.retry.settings = RetrySettings(base_delay_ms=1, max_retries=1)
    notices = [e async for e in rig.port.prompt("question") if isinstance(e, RunNotice)]
    assert len(notices) == 2 and notices[1].text == f"Retry stopped: {CUT}" and notices[1].retry_over


async def test_the_footer_stops_counting_down_once_the_retried_reply_streams(tmp_path: Path) -> None:
    rig = Rig(tmp_path, [fail(CUT, "half an answer"), "The whole answer."])
    rig.control.session.retry.settings = RetrySettings(base_delay_ms=1)
    state = TuiState()
    retried = False
    counting_while_answering: list[bool] = []
    async for event in rig.port.prompt("question"):
        apply(state, event, 0.0)
        retried = retried or (isinstance(event, RunNotice) and event.retry_in is not None)
        updates = event.events if isinstance(event, EventBatch) else (event,)  # one network read's
        if retried and any(isinstance(update, MessageUpdateEvent) for update in updates):
            counting_while_answering.append(state.retry_at is not None)
    assert counting_while_answering and not any(counting_while_answering)
