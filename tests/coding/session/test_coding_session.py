"""CodingSession: persist before announce, entries for settings, retries, user shell commands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tau_agent.events import MessageEndEvent, MessageUpdateEvent
from tau_agent.messages import AssistantMessage, BashExecutionMessage, UserMessage
from tau_agent.provider import Context, RetryNotice, StreamOptions
from tau_agent.session.entries import MessageEntry, ModelChangeEntry, ThinkingLevelChangeEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.stream_events import AssistantMessageEvent
from tau_agent.testing import FakeProvider
from tau_ai.model import Model
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.events import AgentSettledEvent, AutoRetryEndEvent, AutoRetryStartEvent, SessionEvent
from tau_coding.session.store.manager import SessionManager

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")


def _session(tmp_path: Path, provider: Any, log: SessionLog | None = None) -> CodingSession:
    manager = SessionManager(tmp_path / "sessions", str(tmp_path))
    return CodingSession(
        log=log or manager.new(),
        model=MODEL,
        provider_factory=lambda model: provider,
        tools=[],
        system_prompt="Be brief.",
        cwd=tmp_path,
    )


async def _drain(events: AsyncIterator[SessionEvent]) -> list[SessionEvent]:
    return [e async for e in events]


async def test_each_message_is_on_disk_before_listeners_hear_of_it(tmp_path: Path) -> None:
    session = _session(tmp_path, FakeProvider(["Hi there."]))
    seen_on_disk: list[int] = []

    def listener(event: SessionEvent) -> None:
        if isinstance(event, MessageEndEvent):
            storage = session.log.storage
            assert isinstance(storage, JsonlSessionStorage)
            seen_on_disk.append(sum(isinstance(e, MessageEntry) for e in session.log.entries))

    session.subscribe(listener)
    events = await _drain(session.prompt("hello"))
    assert seen_on_disk == [1, 2]
    assert isinstance(events[-1], AgentSettledEvent) and events[-2].type == "agent_end"
    path = session.session_file
    assert path is not None and path.exists()
    session.close()
    reopened = SessionLog(JsonlSessionStorage.open(path))
    assert [type(m).__name__ for m in reopened.state().messages] == ["UserMessage", "AssistantMessage"]


async def test_a_new_session_records_model_and_thinking_level(tmp_path: Path) -> None:
    manager = SessionManager(tmp_path / "sessions", str(tmp_path))
    log = manager.new()
    session = CodingSession(
        log=log,
        model=MODEL,
        provider_factory=lambda m: FakeProvider(["ok"]),
        tools=[],
        system_prompt="",
        cwd=tmp_path,
        thinking_level="high",
    )
    kinds = [type(e) for e in session.log.entries]
    assert kinds == [ModelChangeEntry, ThinkingLevelChangeEntry]
    session.set_thinking_level("low")
    other = Model("other", "fake", "fake", "http://127.0.0.1")
    session.set_model(other)
    state = session.log.state()
    assert state.thinking_level == "low" and state.model is not None and state.model.model_id == "other"
    assert session.harness.options.thinking_level == "low"


async def test_templates_expand_before_the_model_sees_the_prompt(tmp_path: Path) -> None:
    from tau_coding.resources.loader import load_resources

    prompts = tmp_path / "home" / ".tau" / "prompts"
    prompts.mkdir(parents=True)
    (prompts / "review.md").write_text("Review $1 carefully.")
    resources = load_resources(tmp_path, tmp_path / "home" / ".tau", tmp_path / "home")
    provider = FakeProvider(["Done."])
    session = _session(tmp_path, provider)
    session.resources = resources
    await _drain(session.prompt("/review app.py"))
    sent = provider.contexts[0].messages[-1]
    assert isinstance(sent, UserMessage) and sent.content == "Review app.py carefully."


class _RetryingProvider:
    """Reports one retry through the options, then answers."""

    api, provider, model = "fake", "fake", "fake-model"

    def __init__(self) -> None:
        self.inner = FakeProvider(["Recovered."])

    def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        assert options.on_retry is not None
        options.on_retry(RetryNotice(1, 3, 10, "HTTP 529: overloaded"))
        return self.inner.stream(context, options)


async def test_provider_retries_become_auto_retry_events(tmp_path: Path) -> None:
    session = _session(tmp_path, _RetryingProvider())
    heard: list[str] = []
    session.subscribe(lambda e: heard.append(e.type))
    events = await _drain(session.prompt("hi"))
    start = next(e for e in events if isinstance(e, AutoRetryStartEvent))
    end = next(e for e in events if isinstance(e, AutoRetryEndEvent))
    assert (start.attempt, start.error_message) == (1, "HTTP 529: overloaded")
    assert end.success and heard.index("auto_retry_start") < heard.index("auto_retry_end")


async def test_user_shell_command_is_recorded_and_sent_unless_excluded(tmp_path: Path) -> None:
    provider = FakeProvider(["Seen."])
    session = _session(tmp_path, provider)
    shown = await session.run_bash("echo visible; exit 3")
    hidden = await session.run_bash("echo secret", exclude_from_context=True)
    assert (
        isinstance(shown, BashExecutionMessage) and shown.output.strip() == "visible" and shown.exit_code == 3
    )
    assert hidden.exclude_from_context
    await _drain(session.prompt("what did you see?"))
    sent = " ".join(str(m.content) for m in provider.contexts[0].messages)
    assert "visible" in sent and "Command exited with code 3" in sent and "secret" not in sent
    roles = [m.role for m in session.log.state().messages]
    assert roles[:2] == ["bashExecution", "bashExecution"]


async def test_user_shell_output_that_looks_like_a_status_line_is_kept_whole(tmp_path: Path) -> None:
    session = _session(tmp_path, FakeProvider([]))
    message = await session.run_bash("printf 'made it\\n\\nCommand exited with code 9'; exit 4")
    assert message.output == "made it\n\nCommand exited with code 9" and message.exit_code == 4


async def test_failed_reply_is_persisted_and_continue_recovers(tmp_path: Path) -> None:
    from tau_agent.testing import fail

    provider = FakeProvider([fail("HTTP 400: bad request"), "Second try worked."])
    session = _session(tmp_path, provider)
    await _drain(session.prompt("go"))
    assert isinstance(session.messages[-1], AssistantMessage) and session.messages[-1].stop_reason == "error"
    await _drain(session.continue_())
    final = session.messages[-1]
    assert isinstance(final, AssistantMessage) and final.text == "Second try worked."
    assert [m.role for m in session.log.state().messages] == ["user", "assistant", "assistant"]


async def test_a_shell_command_during_a_run_joins_the_record_when_it_settles(tmp_path: Path) -> None:
    from tau_agent.testing import reply, text

    provider = FakeProvider([reply(text("slow answer", chunk_size=2), delay=0.01), "Next."])
    session = _session(tmp_path, provider)
    run = session.prompt("go")
    await run.__anext__()
    assert session.is_running
    message = await session.run_bash("echo during")
    assert message.output.strip() == "during" and message not in session.messages
    await _drain(run)
    assert session.messages[-1] is message
    await _drain(session.prompt("and?"))
    sent = " ".join(str(m.content) for m in provider.contexts[1].messages)
    assert "during" in sent
    assert [m.role for m in session.log.state().messages][:4] == [
        "user",
        "assistant",
        "bashExecution",
        "user",
    ]


async def test_a_listener_without_deltas_hears_every_other_event_in_the_same_order(tmp_path: Path) -> None:
    session = _session(tmp_path, _RetryingProvider())
    every: list[SessionEvent] = []
    without: list[SessionEvent] = []
    session.subscribe(every.append)
    unsubscribe = session.subscribe(without.append, deltas=False)
    await _drain(session.prompt("hi"))
    assert any(type(e) is MessageUpdateEvent for e in every)
    assert without == [e for e in every if type(e) is not MessageUpdateEvent]
    unsubscribe()
    heard_before = len(without)
    await _drain(session.prompt("again"))
    assert len(every) > 2 * heard_before and len(without) == heard_before
