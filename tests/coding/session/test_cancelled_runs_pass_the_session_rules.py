"""Cancel at every event: a run of a multi-tool turn is cancelled at each of its event indexes
in turn, through a CodingSession writing a real session file. Every resulting transcript must be
valid, in memory and on disk alike (every tool call has exactly one result; nothing recorded
twice), and the next prompt must work and send the provider a valid context.

The checker is bench/session_rules.py; the same spec over RPC ``abort`` is in
tests/e2e/test_rpc_abort_transcripts.py.
"""

from __future__ import annotations

from pathlib import Path

from bench.session_rules import in_memory_problems, session_problems

from tau_agent.messages import AssistantMessage
from tau_agent.testing import FakeProvider, call, reply, text
from tau_ai.model import Model
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.events import SessionEvent
from tau_coding.session.store.manager import SessionManager
from tau_coding.tools.builtin import create_coding_tools

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")


def multi_tool_reply() -> object:
    return reply(
        text("Let me look at both files.", chunk_size=6),
        call("read", {"path": "a.txt"}, id="call_a"),
        call("bash", {"command": "sleep 0.02; echo ran"}, id="call_b"),
        call("read", {"path": "b.txt"}, id="call_c"),
        delay=0.002,
    )


def make_session(tmp_path: Path) -> tuple[CodingSession, FakeProvider]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "a.txt").write_text("alpha\n")
    (tmp_path / "b.txt").write_text("beta\n")
    provider = FakeProvider([multi_tool_reply(), "Both read.", "Fine again."], repeat_last=True)
    tools = create_coding_tools(tmp_path, names=("read", "bash"))
    session = CodingSession(
        log=SessionManager(tmp_path / "sessions", str(tmp_path)).new(),
        model=MODEL,
        provider_factory=lambda model: provider,
        tools=list(tools.values()),
        system_prompt="Be brief.",
        cwd=tmp_path,
    )
    return session, provider


async def run(session: CodingSession, prompt: str, cancel_at: int | None = None) -> list[SessionEvent]:
    events: list[SessionEvent] = []
    async for event in session.prompt(prompt):
        events.append(event)
        if len(events) - 1 == cancel_at:
            session.cancel()
    return events


async def count_events(tmp_path: Path) -> int:
    session, _ = make_session(tmp_path)
    try:
        return len(await run(session, "Read a.txt and b.txt"))
    finally:
        session.close()


def transcript_findings(session: CodingSession, provider: FakeProvider) -> list[str]:
    findings = [f"in memory: {p}" for p in in_memory_problems(session.messages)]
    path = session.session_file
    if path is not None and path.exists():
        findings += [f"on disk: {p}" for p in session_problems(path)]
    return findings


async def test_an_uncancelled_multi_tool_run_is_valid_and_long_enough_to_cancel_anywhere(
    tmp_path: Path,
) -> None:
    session, provider = make_session(tmp_path)
    events = await run(session, "Read a.txt and b.txt")
    session.close()
    assert transcript_findings(session, provider) == []
    assert len(events) > 25
    assert sum(e.type == "tool_execution_end" for e in events) == 3


async def cancelled_at(index: int, folder: Path) -> list[str]:
    """The findings of one run cancelled at event ``index`` and the prompt after it."""
    session, provider = make_session(folder)
    try:
        await run(session, "Read a.txt and b.txt", cancel_at=index)
        findings = transcript_findings(session, provider)
        await run(session, "Go on")
        last = session.messages[-1]
        if not (isinstance(last, AssistantMessage) and last.stop_reason == "stop"):
            findings.append(f"the next prompt did not get an answer: {last!r:.200}")
        sent = provider.contexts[-1].messages
        findings += [f"next request: {p}" for p in in_memory_problems(sent)]
        findings += [f"after the next prompt: {p}" for p in transcript_findings(session, provider)]
    finally:
        session.close()
    return findings


async def test_cancelling_at_every_event_leaves_valid_transcripts_in_memory_and_on_disk(
    tmp_path: Path,
) -> None:
    total = await count_events(tmp_path / "count")
    invalid = {}
    for index in range(total):
        findings = await cancelled_at(index, tmp_path / f"run-{index}")
        if findings:
            invalid[index] = findings
    first = next(iter(invalid.items()), None)
    assert not invalid, (
        f"{total - len(invalid)}/{total} transcripts valid; invalid when cancelled at events "
        f"{sorted(invalid)}; at event {first[0] if first else ''}: {first[1] if first else ''}"
    )
