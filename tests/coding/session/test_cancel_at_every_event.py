"""Cancel a multi-tool turn at each of its events: every tool call keeps exactly one result,
the same in memory and in the session file, and the next prompt works."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage
from tau_agent.session.entries import MessageEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.testing import FakeProvider, call, fail, reply, text
from tau_ai.model import Model
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.reply_retry import RetrySettings
from tau_coding.session.store.manager import SessionManager
from tau_coding.tools.builtin import create_coding_tools

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")


def _provider() -> FakeProvider:
    turn = reply(
        text("Let me read all three files.", chunk_size=6),
        call("read", {"path": "a.txt"}, id="call_a"),
        call("read", {"path": "b.txt"}, id="call_b"),
        call("read", {"path": "c.txt"}, id="call_c"),
    )
    return FakeProvider([turn, "They say a, b and c.", "Next answer."])


def _retried_provider() -> FakeProvider:
    """A turn whose first reply breaks inside its tool calls and is retried."""
    broken = fail(
        "Connection error: RemoteProtocolError: peer closed connection",
        text("Reading a.", chunk_size=4),
        call("read", {"path": "a.txt"}, id="call_x"),
    )
    turn = reply(text("Reading a and b.", chunk_size=4), call("read", {"path": "a.txt"}, id="call_a"))
    return FakeProvider([broken, turn, "It says a.", "Next answer."])


def _session(root: Path, provider: FakeProvider, log: SessionLog | None = None) -> CodingSession:
    root.mkdir(exist_ok=True)
    for name in ("a", "b", "c"):
        (root / f"{name}.txt").write_text(name)
    manager = SessionManager(root / "sessions", str(root))
    return CodingSession(
        log=log or manager.new(),
        model=MODEL,
        provider_factory=lambda model: provider,
        tools=list(create_coding_tools(root, names=["read"]).values()),
        system_prompt="",
        cwd=root,
        retry=RetrySettings(base_delay_ms=1),
    )


def _results_per_call(messages: Sequence[AgentMessage]) -> dict[str, int]:
    calls = [c.id for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls]
    answered = Counter(m.tool_call_id for m in messages if isinstance(m, ToolResultMessage))
    return {call_id: answered[call_id] for call_id in calls}


def _shape(messages: Sequence[AgentMessage]) -> list[tuple[str, str]]:
    return [
        (m.role, m.tool_call_id if isinstance(m, ToolResultMessage) else getattr(m, "stop_reason", ""))
        for m in messages
    ]


async def _events_in_a_full_run(root: Path, make: Callable[[], FakeProvider]) -> int:
    session = _session(root, make())
    count = len([e async for e in session.prompt("read them")])
    session.close()
    return count


@pytest.mark.parametrize("make", [_provider, _retried_provider], ids=["three-calls", "retried-turn"])
async def test_cancel_at_every_event_leaves_a_valid_transcript_in_memory_and_on_disk(
    tmp_path: Path, make: Callable[[], FakeProvider]
) -> None:
    total = await _events_in_a_full_run(tmp_path / "full", make)
    assert total > 30
    outcomes: Counter[str] = Counter()
    for index in range(total):
        root = tmp_path / f"cancel-{index}"
        provider = make()
        session = _session(root, provider)
        seen = 0
        async for _ in session.prompt("read them"):
            if seen == index:
                session.cancel()
            seen += 1

        memory = list(session.messages)
        answers = [m for m in memory if isinstance(m, AssistantMessage) and m.stop_reason == "stop"]
        assert len(answers) <= 1, index  # never two copies of the final answer
        replies = [m for m in memory if isinstance(m, AssistantMessage)]
        failed = [i for i, m in enumerate(replies) if m.stop_reason == "error"]
        assert failed in ([], [len(replies) - 1]), index  # a retried failure left the context
        counts = _results_per_call(memory)
        assert all(n == 1 for n in counts.values()), (index, counts)
        outcomes[
            "dangling-closed" if any(isinstance(m, ToolResultMessage) for m in memory) else "no-calls"
        ] += 1

        path = session.session_file
        assert path is not None
        session.close()
        log = SessionLog(JsonlSessionStorage.open(path))
        on_disk = [e.message for e in log.path() if isinstance(e, MessageEntry)]
        assert _shape(on_disk) == _shape(memory), index  # the file holds exactly what memory does
        assert _results_per_call(on_disk) == counts

        again = _session(root, provider, log)
        [e async for e in again.prompt("and now?")]
        last = again.messages[-1]
        assert isinstance(last, AssistantMessage), index
        assert last.stop_reason == "stop", (index, last.error_message)
        again.close()
    assert outcomes["dangling-closed"] > 0
