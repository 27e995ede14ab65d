"""The TUI shows a compaction made within a run: the port turns the session's compaction events
into notices, the footer says it is compacting, and an overflow that is being dealt with asks
nothing of the user."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_agent.messages import Cost, Usage
from tau_agent.testing.fake_provider import ReplyLike, call, fail, reply
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.tui.footer_format import footer_lines
from tau_coding.tui.items import ErrorItem, NoticeItem, RunNotice
from tau_coding.tui.port import SessionInfo
from tau_coding.tui.state import TuiState, apply, from_messages
from tests.coding.tui.session_helpers import Rig

OVERFLOW = "HTTP 400: prompt is too long: 37883 tokens > 37500 maximum"
INFO = SessionInfo(cwd="/p", model_label="m", context_window=1000)
KEEP_LITTLE = CompactionSettings(enabled=True, reserve_tokens=1_000, keep_recent_tokens=10)


def _rig(tmp_path: Path, summary: ReplyLike = "Summary: the user listed the folder.") -> Rig:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "notes.txt").write_text("notes\n" * 200)
    rig = Rig(
        tmp_path,
        [
            reply(call("ls", {})),  # progress first: an overflow after it is recovered
            fail(OVERFLOW),
            summary,  # the compaction's
            "Here is the folder.",  # the retried request
        ],
    )
    rig.control.session.compactor.settings = KEEP_LITTLE
    return rig


async def test_an_overflow_in_a_run_shows_the_compaction_and_no_retry_hint(tmp_path: Path) -> None:
    rig = _rig(tmp_path)
    state = TuiState()
    notices: list[RunNotice] = []
    compacting_while: list[bool] = []
    async for event in rig.port.prompt("list the folder"):
        apply(state, event, 0.0)
        if isinstance(event, RunNotice):
            notices.append(event)
            compacting_while.append(state.compacting and state.status == "running")
    assert [(n.compacting, n.tone) for n in notices] == [(True, "compaction"), (False, "compaction")]
    assert compacting_while == [True, False]
    assert "overflowed" in notices[0].text and notices[1].text.startswith("Context compacted (")
    (error,) = [i for i in state.items if isinstance(i, ErrorItem)]
    assert OVERFLOW in error.message and error.hint == ""  # dealt with: nothing for the user to do
    shown = [i.text for i in state.items if isinstance(i, NoticeItem)]
    assert shown == [notices[0].text, notices[1].text]  # the summary is not shown a second time
    assert rig.control.session.messages[-1].text == "Here is the folder."  # type: ignore[union-attr]


def test_the_footer_says_compacting_and_that_esc_cancels() -> None:
    state = TuiState()
    apply(state, RunNotice("The context is nearly full: compacting it", "compaction", compacting=True), 0.0)
    assert state.status == "running"
    _, stats = footer_lines(INFO, state, "~")
    assert any("compacting… · Esc cancels" in text for text, _ in stats)
    apply(state, RunNotice("Context compacted (1,000 tokens before)", "compaction", compacting=False), 0.0)
    _, stats = footer_lines(INFO, state, "~")
    assert not any("compacting" in text for text, _ in stats)


async def test_a_compaction_that_fails_after_an_overflow_says_what_is_left_to_do(tmp_path: Path) -> None:
    rig = _rig(tmp_path, summary=fail("HTTP 500: the summary broke"))
    notices = [e async for e in rig.port.prompt("list the folder") if isinstance(e, RunNotice)]
    end = notices[-1]
    assert end.compacting is False and end.tone == "warning"
    assert end.text.startswith("Compaction failed: ") and "not retried: /compact" in end.text


def _paid(tokens: int) -> Usage:
    return Usage(input=tokens, output=10, cost=Cost(total=tokens / 1000))


async def test_the_totals_count_every_reply_paid_for_after_a_compaction(tmp_path: Path) -> None:
    # Pi's footer sums the whole file: a compaction drops replies from the context, not the bill.
    rig = Rig(
        tmp_path,
        [
            reply("First answer.", usage=_paid(400)),
            reply("Second answer.", usage=_paid(500)),
            "Summary: two questions were answered.",  # the compaction's (no reply entry: as in Pi)
        ],
    )
    rig.control.session.compactor.settings = KEEP_LITTLE
    for prompt in ("first", "second"):
        async for _ in rig.port.prompt(prompt):
            pass
    await rig.control.compact()
    shown = from_messages(rig.port.messages, None, rig.port.spent())
    context_only = from_messages(rig.port.messages)
    assert context_only.usage.input < 400 + 500, "the first replies left the context"
    assert (shown.usage.input, shown.usage.output) == (400 + 500, 20)
    assert shown.usage.cost == pytest.approx(0.9)
