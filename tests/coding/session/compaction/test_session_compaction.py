"""Compaction inside a CodingSession: thresholds, overflow recovery, failures, manual /compact."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tau_agent.content import ToolCall
from tau_agent.events import MessageEndEvent
from tau_agent.harness import AgentBusyError
from tau_agent.messages import (
    COMPACTION_PREFIX,
    AgentMessage,
    AssistantMessage,
    CompactionSummaryMessage,
    LlmMessage,
    ToolResultMessage,
    UserMessage,
    context_for_model,
    convert_to_llm,
)
from tau_agent.provider import Context
from tau_agent.session.entries import CompactionEntry, MessageEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.testing.fake_provider import call, reply
from tau_agent.wire import message_to_dict
from tau_coding.session.compaction.context_usage import estimate_message_tokens
from tau_coding.session.compaction.errors import CompactionCancelledError, NothingToCompactError
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.session.events import AgentSettledEvent, CompactionEndEvent, CompactionStartEvent
from tests.coding.session.compaction.scripted import (
    SMALL,
    ScriptedModel,
    drain,
    make_session,
    write_turn_files,
)


def _assert_tool_pairs_complete(messages: list[LlmMessage]) -> None:
    for index, message in enumerate(messages):
        if isinstance(message, AssistantMessage) and message.tool_calls:
            following: set[str] = set()
            for later in messages[index + 1 :]:
                if not isinstance(later, ToolResultMessage):
                    break
                following.add(later.tool_call_id)
            assert {c.id for c in message.tool_calls} <= following, f"unanswered call at {index}"
        if isinstance(message, ToolResultMessage):
            owner = next(m for m in reversed(messages[:index]) if not isinstance(m, ToolResultMessage))
            assert isinstance(owner, AssistantMessage)
            assert message.tool_call_id in {c.id for c in owner.tool_calls}, f"orphan result at {index}"


def _fingerprint(messages: list[AgentMessage] | list[LlmMessage]) -> list[object]:
    return [message_to_dict(m) for m in messages]


def _compactions(log: SessionLog) -> list[CompactionEntry]:
    return [e for e in log.path() if isinstance(e, CompactionEntry)]


async def test_500_turns_cross_the_threshold_repeatedly_and_stay_valid(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 500)
    model = ScriptedModel()
    session, _provider = make_session(tmp_path, model)
    checked: list[int] = []

    def check(context: Context) -> None:
        """At every agent request: tool pairs whole, and nothing before firstKeptEntryId sent."""
        messages = list(context.messages)
        _assert_tool_pairs_complete(messages)
        assert sum(estimate_message_tokens(m) for m in messages) < SMALL.context_window
        compactions = _compactions(session.log)
        if compactions:
            latest = compactions[-1]
            first = messages[0]
            assert isinstance(first, UserMessage) and str(first.content).startswith(COMPACTION_PREFIX)
            kept = session.log.tree.get(latest.first_kept_entry_id)
            assert isinstance(kept, MessageEntry)
            assert message_to_dict(messages[1]) == message_to_dict(convert_to_llm([kept.message])[0])
        checked.append(1)

    model.on_agent_request = check

    starts: list[str] = []
    for turn in range(500):
        events = await drain(session.prompt(f"turn t{turn}"))
        assert isinstance(events[-1], AgentSettledEvent)
        starts += [e.reason for e in events if isinstance(e, CompactionStartEvent)]
        ends = [e for e in events if isinstance(e, CompactionEndEvent)]
        assert all(e.result is not None and e.error_message is None for e in ends)
        last = session.messages[-1]
        assert isinstance(last, AssistantMessage) and last.text == f"answer t{turn}"
    assert len(checked) == 1000
    compactions = _compactions(session.log)
    assert len(compactions) >= 10 and set(starts) == {"threshold"}
    assert session.context_usage().tokens <= SMALL.context_window - 4_000
    # later summaries update the earlier one rather than starting over
    assert all("<previous-summary>" in r for r in model.summary_requests[1:])
    assert "t0.txt" in compactions[-1].summary and "t0.txt" in compactions[-1].details["readFiles"]
    path = session.session_file
    assert path is not None
    session.close()
    reopened = SessionLog(JsonlSessionStorage.open(path))
    replay = reopened.state().messages
    assert _fingerprint(replay) == _fingerprint(session.messages)
    assert sum(isinstance(e, MessageEntry) for e in reopened.entries) == 2_000  # nothing rewritten


async def test_overflow_on_the_first_try_compacts_and_retries_once(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 12, size=4_000)
    model = ScriptedModel()
    session, _ = make_session(
        tmp_path, model, settings=CompactionSettings(reserve_tokens=4_000, keep_recent_tokens=2_000)
    )
    for turn in range(8):
        await drain(session.prompt(f"turn t{turn}"))
    assert not _compactions(session.log)  # under the threshold so far
    model.overflow_next = 1
    requests_before = len(model.agent_contexts)
    events = await drain(session.prompt("turn t9"))
    kinds = [e.type for e in events]
    assert kinds.index("compaction_start") < kinds.index("compaction_end") < kinds.index("agent_settled")
    start = next(e for e in events if isinstance(e, CompactionStartEvent))
    end = next(e for e in events if isinstance(e, CompactionEndEvent))
    assert start.reason == "overflow" and end.will_retry and end.result is not None
    answers = [
        e.message
        for e in events
        if isinstance(e, MessageEndEvent) and isinstance(e.message, AssistantMessage)
    ]
    assert answers[0].stop_reason == "error" and answers[-1].text == "answer t9"
    assert kinds[-1] == "agent_settled" and kinds.count("compaction_start") == 1
    retried = model.agent_contexts[requests_before + 1]
    assert not any(isinstance(m, AssistantMessage) and m.stop_reason == "error" for m in retried.messages)
    assert str(retried.messages[0].content).startswith(COMPACTION_PREFIX)
    # the failed reply stays in the file, off the path
    failed = [
        e
        for e in session.log.entries
        if isinstance(e, MessageEntry)
        and isinstance(e.message, AssistantMessage)
        and e.message.stop_reason == "error"
    ]
    assert len(failed) == 1 and failed[0] not in session.log.path()
    assert not any(m is failed[0].message for m in session.messages)


async def test_an_overflow_straight_after_compacting_is_not_retried_again(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 12, size=4_000)
    model = ScriptedModel()
    session, _ = make_session(
        tmp_path, model, settings=CompactionSettings(reserve_tokens=4_000, keep_recent_tokens=2_000)
    )
    for turn in range(6):
        await drain(session.prompt(f"turn t{turn}"))
    model.overflow_next = 5
    before = len(model.agent_contexts)
    events = await drain(session.prompt("turn t7"))
    assert len(model.agent_contexts) - before == 2
    assert [e.type for e in events].count("compaction_start") == 1
    last = session.messages[-1]
    assert isinstance(last, AssistantMessage) and last.stop_reason == "error"
    model.overflow_next = 0
    await drain(session.prompt("turn t8"))
    assert session.messages[-1].text == "answer t8"  # type: ignore[union-attr]


async def test_a_failing_summariser_leaves_the_session_usable_and_says_why(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 60)
    model = ScriptedModel(summary_error="HTTP 500: summariser exploded")
    session, _ = make_session(tmp_path, model)
    failures: list[CompactionEndEvent] = []
    for turn in range(60):
        events = await drain(session.prompt(f"turn t{turn}"))
        ends = [e for e in events if isinstance(e, CompactionEndEvent)]
        assert len(ends) <= 1  # a failed compaction is not tried again within the same prompt
        failures += ends
        assert session.messages[-1].text == f"answer t{turn}"  # type: ignore[union-attr]
    assert failures and all(e.result is None and not e.aborted for e in failures)
    assert "summariser exploded" in (failures[0].error_message or "")
    assert not _compactions(session.log)
    model.summary_error = None
    result = await session.compact()
    assert result.summary.startswith("## Goal") and _compactions(session.log)


async def test_overflow_with_a_failing_summariser_does_not_retry(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 8, size=4_000)
    model = ScriptedModel(summary_error="HTTP 503: overloaded")
    session, _ = make_session(
        tmp_path, model, settings=CompactionSettings(reserve_tokens=4_000, keep_recent_tokens=2_000)
    )
    for turn in range(4):
        await drain(session.prompt(f"turn t{turn}"))
    model.overflow_next = 1
    before = len(model.agent_contexts)
    events = await drain(session.prompt("turn t5"))
    [end] = [e for e in events if isinstance(e, CompactionEndEvent)]  # one try, not one per check
    assert not end.will_retry and "overloaded" in (end.error_message or "")
    assert len(model.agent_contexts) - before == 1 and isinstance(events[-1], AgentSettledEvent)


async def test_manual_compact_keeps_the_recent_tail_and_focus(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 10)
    model = ScriptedModel()
    session, _ = make_session(
        tmp_path,
        model,
        settings=CompactionSettings(enabled=False, reserve_tokens=4_000, keep_recent_tokens=1_000),
    )
    for turn in range(10):
        await drain(session.prompt(f"turn t{turn}"))
    tail_before = _fingerprint(session.messages[-4:])
    result = await session.compact("the config files")
    assert "Additional focus requested by the user: the config files" in model.summary_requests[-1]
    assert isinstance(session.messages[0], CompactionSummaryMessage)
    assert _fingerprint(session.messages[-4:]) == tail_before
    assert result.tokens_before > session.context_usage().tokens
    await drain(session.prompt("turn t3"))
    assert str(model.agent_contexts[-1].messages[0].content).startswith(COMPACTION_PREFIX)


async def test_manual_compact_is_refused_while_a_run_is_active(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 2)
    gate = asyncio.Event()
    model = ScriptedModel()

    async def slow(context: Context, options: object) -> object:
        await gate.wait()
        return model(context, options)  # type: ignore[arg-type]

    from tau_agent.testing import FunctionProvider

    provider = FunctionProvider(slow)  # type: ignore[arg-type]
    session, _ = make_session(tmp_path, model)
    session.harness.provider = provider
    run = asyncio.ensure_future(drain(session.prompt("turn t0")))
    await asyncio.sleep(0.01)
    with pytest.raises(AgentBusyError):
        await session.compact()
    gate.set()
    await run


async def test_manual_compact_can_be_cancelled_and_changes_nothing(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 10)
    gate = asyncio.Event()
    model = ScriptedModel()
    session, _provider = make_session(
        tmp_path,
        model,
        settings=CompactionSettings(enabled=False, reserve_tokens=4_000, keep_recent_tokens=1_000),
    )
    for turn in range(10):
        await drain(session.prompt(f"turn t{turn}"))
    entries_before = len(session.log.entries)

    async def blocked(context: Context, options: object) -> object:
        await gate.wait()
        return model(context, options)  # type: ignore[arg-type]

    from tau_agent.testing import FunctionProvider

    session.harness.provider = FunctionProvider(blocked)  # type: ignore[arg-type]
    task = asyncio.ensure_future(session.compact())
    await asyncio.sleep(0.01)
    assert session.is_running
    session.cancel()
    gate.set()
    with pytest.raises(CompactionCancelledError):
        await task
    assert len(session.log.entries) == entries_before and not session.is_running


async def test_nothing_to_compact_is_a_clear_error(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, ScriptedModel())
    with pytest.raises(NothingToCompactError, match="nothing to compact: the session has no messages yet"):
        await session.compact()


async def test_manual_compact_of_a_short_context_keeps_all_of_it_as_pi_does(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 2)
    model = ScriptedModel()
    session, _ = make_session(tmp_path, model)
    for turn in range(2):
        await drain(session.prompt(f"turn t{turn}"))
    before = _fingerprint(session.messages)
    first_user = next(e for e in session.log.path() if isinstance(e, MessageEntry))
    result = await session.compact()
    assert result.first_kept_entry_id == first_user.id and result.summary.startswith("## Goal")
    assert model.summary_requests[-1].startswith("<conversation>\n\n</conversation>")
    assert isinstance(session.messages[0], CompactionSummaryMessage)
    assert _fingerprint(session.messages[1:]) == before
    with pytest.raises(NothingToCompactError, match="just compacted"):
        await session.compact()
    await drain(session.prompt("turn t0"))
    again = await session.compact()  # the earlier summary is updated, everything still kept
    assert "<previous-summary>" in model.summary_requests[-1]
    assert again.first_kept_entry_id == first_user.id


async def test_nothing_to_compact_at_the_threshold_is_not_a_failure(tmp_path: Path) -> None:
    """One message bigger than the threshold: no cut can be made, and that is no error."""
    (tmp_path / "t0.txt").write_text("small\n")
    model = ScriptedModel()
    session, _ = make_session(tmp_path, model)
    events = await drain(session.prompt("x" * 70_000 + " turn t0"))
    [end] = [e for e in events if isinstance(e, CompactionEndEvent)]
    assert (end.result, end.aborted, end.error_message) == (None, False, None)
    assert model.summary_requests == [] and not _compactions(session.log)


async def test_compaction_model_setting_summarises_with_another_model(tmp_path: Path) -> None:
    from tau_agent.testing import FunctionProvider
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.store.manager import SessionManager
    from tau_coding.tools.builtin import create_coding_tools

    write_turn_files(tmp_path, 10)
    agent_model, cheap_model = ScriptedModel(), ScriptedModel()
    agent, cheap = FunctionProvider(agent_model), FunctionProvider(cheap_model, model="cheap")
    cheap_spec = SMALL.__class__("cheap", "fake", "fake", "http://127.0.0.1", context_window=50_000)
    session = CodingSession(
        log=SessionManager(tmp_path / "s", str(tmp_path)).new(),
        model=SMALL,
        provider_factory=lambda m: cheap if m.id == "cheap" else agent,
        tools=list(create_coding_tools(tmp_path, names=["read"]).values()),
        system_prompt="",
        cwd=tmp_path,
        compaction=CompactionSettings(reserve_tokens=4_000, keep_recent_tokens=1_000),
        summary_model=cheap_spec,
    )
    for turn in range(10):
        await drain(session.prompt(f"turn t{turn}"))
    await session.compact()
    assert cheap_model.summary_requests and not agent_model.summary_requests


def test_tool_call_fixture_sanity() -> None:
    """The pair checker itself rejects a dangling call (so the 500-turn test can fail)."""
    dangling = [AssistantMessage([ToolCall("c1", "read", {})]), UserMessage("next")]
    with pytest.raises(AssertionError):
        _assert_tool_pairs_complete(convert_to_llm(context_for_model(list(dangling))))


async def test_one_long_run_compacts_between_its_own_requests_and_still_answers(tmp_path: Path) -> None:
    """The anchor case: one prompt whose tool results alone overflow the window several times."""
    write_turn_files(tmp_path, 60, size=3_000)
    model = ScriptedModel()
    session, _ = make_session(tmp_path, model)
    sizes: list[int] = []

    def read_all(context: Context, options: object) -> object:
        if context.system_prompt != "Be brief.":
            return model(context, options)  # type: ignore[arg-type]
        messages = list(context.messages)
        _assert_tool_pairs_complete(messages)
        sizes.append(sum(estimate_message_tokens(m) for m in messages))
        done = sum(isinstance(m, ToolResultMessage) for m in session.harness.messages)
        if done < 60:
            return reply(call("read", {"path": f"t{done}.txt"}))
        return reply("read all sixty")

    from tau_agent.testing import FunctionProvider

    session.harness.provider = FunctionProvider(read_all)  # type: ignore[arg-type]
    events = await drain(session.prompt("read t0.txt to t59.txt"))
    ends = [e for e in events if isinstance(e, CompactionEndEvent)]
    assert len(ends) >= 3 and all(e.result is not None for e in ends)
    assert max(sizes) < SMALL.context_window - 2_000
    kinds = [e.type for e in events]
    assert kinds[-1] == "agent_settled" and kinds.index("compaction_end") < kinds.index("agent_end")
    last = session.messages[-1]
    assert isinstance(last, AssistantMessage) and last.text == "read all sixty"
    assert isinstance(session.messages[0], CompactionSummaryMessage)
    path = session.session_file
    assert path is not None
    session.close()
    replay = SessionLog(JsonlSessionStorage.open(path)).state().messages
    assert _fingerprint(replay) == _fingerprint(session.messages)
    assert session.context_usage().tokens < SMALL.context_window - 4_000


async def test_usage_reported_before_a_compaction_is_not_trusted_even_with_equal_clocks(
    tmp_path: Path,
) -> None:
    """Timestamps cannot tell old replies from new here (a frozen clock); the session still knows."""
    from tau_agent.session.entries import SessionHeader
    from tau_agent.session.storage import InMemorySessionStorage

    frozen = "2020-01-01T00:00:00.000Z"
    log = SessionLog(
        InMemorySessionStorage(SessionHeader(id="s", timestamp=frozen, cwd=str(tmp_path))),
        clock=lambda: frozen,
    )
    write_turn_files(tmp_path, 20)
    model = ScriptedModel()
    manual = CompactionSettings(enabled=False, reserve_tokens=4_000, keep_recent_tokens=2_000)
    session, _ = make_session(tmp_path, model, log=log, settings=manual)
    for turn in range(20):
        await drain(session.prompt(f"turn t{turn}"))
    before = session.context_usage()
    assert before.estimated < 100  # calibrated by the last reply's usage
    result = await session.compact()
    after = session.context_usage()
    assert result.tokens_before == before.tokens
    assert after.tokens < before.tokens / 2 and after.estimated == after.tokens
