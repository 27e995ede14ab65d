"""Overflow recovery over one long run: every overflow after progress is recovered, and a
window an overflow error states is the window the compactions keep to from then on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tau_agent.messages import AssistantMessage, ToolResultMessage
from tau_agent.provider import Context
from tau_agent.testing import FunctionProvider
from tau_agent.testing.fake_provider import FakeReply, call, fail, reply
from tau_coding.session.compaction.context_usage import estimate_message_tokens
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.session.events import CompactionEndEvent, CompactionStartEvent
from tests.coding.session.compaction.scripted import (
    SMALL,
    ScriptedModel,
    drain,
    make_session,
    write_turn_files,
)

# The models.json entry says 200k; the server was started with 20k.
OVERSTATED = replace(SMALL, context_window=200_000)
SERVER_WINDOW = 20_000
SETTINGS = CompactionSettings(enabled=True, reserve_tokens=4_000, keep_recent_tokens=4_000)


def reading_server(wording: str, files: int, sizes: list[int], done: list[int]) -> FunctionProvider:
    """Reads t0.txt, t1.txt, ... one per request, then answers; refuses any request over
    ``SERVER_WINDOW`` tokens with ``wording``, as a local server does."""
    summariser = ScriptedModel()

    def answer(context: Context, options: object) -> FakeReply:
        if context.system_prompt != "Be brief.":
            return summariser(context, options)  # type: ignore[arg-type]
        size = sum(estimate_message_tokens(m) for m in context.messages)
        if size > SERVER_WINDOW:
            return fail(wording)
        sizes.append(size)
        if done[0] < files:
            done[0] += 1
            return reply(call("read", {"path": f"t{done[0] - 1}.txt"}))
        return reply(f"read all {files}")

    return FunctionProvider(answer)


async def test_a_long_run_recovers_from_every_overflow_that_follows_progress(tmp_path: Path) -> None:
    """An overflow that states no window (Ollama's wording) happens again and again in one run;
    each one after a reply got through is compacted and retried, as Pi does."""
    write_turn_files(tmp_path, 90, size=3_000)
    session, _ = make_session(tmp_path, ScriptedModel(), settings=SETTINGS, llm=OVERSTATED)
    sizes: list[int] = []
    session.harness.provider = reading_server("HTTP 500: input exceeds context length", 90, sizes, [0])
    events = await drain(session.prompt("read t0.txt to t89.txt"))
    starts = [e.reason for e in events if isinstance(e, CompactionStartEvent)]
    ends = [e for e in events if isinstance(e, CompactionEndEvent)]
    assert starts.count("overflow") >= 2 and all(e.result is not None for e in ends)
    last = session.messages[-1]
    assert isinstance(last, AssistantMessage) and last.text == "read all 90"
    assert sum(isinstance(m, ToolResultMessage) for m in session.messages) < 90  # compacted away


async def test_the_window_an_overflow_states_is_kept_to_by_later_compactions(tmp_path: Path) -> None:
    """After one overflow saying "maximum context length is 20000 tokens", the run compacts
    before its requests reach 20k instead of overflowing again."""
    write_turn_files(tmp_path, 90, size=3_000)
    session, _ = make_session(tmp_path, ScriptedModel(), settings=SETTINGS, llm=OVERSTATED)
    sizes: list[int] = []
    wording = "HTTP 400: This model's maximum context length is 20000 tokens. Please reduce the length of the messages."
    session.harness.provider = reading_server(wording, 90, sizes, [0])
    events = await drain(session.prompt("read t0.txt to t89.txt"))
    starts = [e.reason for e in events if isinstance(e, CompactionStartEvent)]
    assert starts[0] == "overflow" and starts.count("overflow") == 1 and "threshold" in starts[1:]
    last = session.messages[-1]
    assert isinstance(last, AssistantMessage) and last.text == "read all 90"
    assert session.compactor.window() == SERVER_WINDOW
    assert session.context_usage().tokens <= SERVER_WINDOW - SETTINGS.reserve_for(SERVER_WINDOW)


async def test_an_overflow_stating_a_larger_window_changes_nothing(tmp_path: Path) -> None:
    write_turn_files(tmp_path, 2)
    session, _ = make_session(tmp_path, ScriptedModel(), settings=SETTINGS)
    failed = AssistantMessage(
        stop_reason="error", error_message="prompt is too long: 250000 tokens > 200000 maximum"
    )
    session.compactor.drop_failed_reply(failed)
    assert session.compactor.window() == SMALL.context_window
