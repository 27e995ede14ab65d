"""The tool calls of a failed or aborted reply are closed at once: recorded, then announced."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from tau_agent.assistant_builder import AssistantMessageBuilder
from tau_agent.cancellation import CancellationToken
from tau_agent.events import (
    AgentEndEvent,
    AgentEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    ToolExecutionStartEvent,
    TurnEndEvent,
)
from tau_agent.loop import NOT_RUN, LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, AssistantMessage, StopReason, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent, ToolCallStartEvent
from tau_agent.testing import FakeProvider, call, fail
from tau_agent.tool_execution import CUT_OFF, INTERRUPTED
from tests.agent.helpers import read_tool, run, shape


def _text(message: ToolResultMessage) -> str:
    return "".join(getattr(b, "text", "") for b in message.content)


async def test_a_failed_replys_calls_get_error_results_before_turn_end() -> None:
    provider = FakeProvider(
        [fail("HTTP 502: bad gateway", call("read", {"path": "a"}, id="c1"), call("ls", id="c2"))]
    )
    events, messages = await run(LoopConfig(provider=provider))
    assert shape(messages) == "U A[c1,c2] R(c1) R(c2)"
    results = [m for m in messages if isinstance(m, ToolResultMessage)]
    assert all(r.is_error and _text(r) == f"{NOT_RUN}: HTTP 502: bad gateway" for r in results)
    assert not any(isinstance(e, ToolExecutionStartEvent) for e in events)  # nothing ran
    tail = [type(e).__name__ for e in events[-7:]]
    assert tail == [
        "MessageEndEvent",
        "MessageStartEvent",
        "MessageEndEvent",
        "MessageStartEvent",
        "MessageEndEvent",
        "TurnEndEvent",
        "AgentEndEvent",
    ]
    turn_end, agent_end = events[-2], events[-1]
    assert isinstance(turn_end, TurnEndEvent) and turn_end.tool_results == results
    assert isinstance(agent_end, AgentEndEvent) and agent_end.messages[-2:] == results


async def test_an_abort_while_calls_stream_closes_each_with_an_interrupted_result() -> None:
    provider = FakeProvider([fail("unused", call("read", {"path": "a"}, id="c1"), call("read", id="c2"))])
    signal = CancellationToken()
    record: list[AgentMessage] = []
    events: list[AgentEvent] = []
    async for event in run_agent_loop([UserMessage("go")], record, LoopConfig(provider=provider), signal):
        events.append(event)
        if isinstance(event, MessageUpdateEvent) and isinstance(
            event.assistant_message_event, ToolCallStartEvent
        ):
            signal.cancel()
    reply = record[1]
    assert isinstance(reply, AssistantMessage) and reply.stop_reason == "aborted"
    results = [m for m in record if isinstance(m, ToolResultMessage)]
    assert [r.tool_call_id for r in results] == [c.id for c in reply.tool_calls] and results
    assert all(_text(r) == INTERRUPTED for r in results)
    for result in results:  # each announced after it was recorded, in a balanced pair
        starts = [e for e in events if isinstance(e, MessageStartEvent) and e.message is result]
        ends = [e for e in events if isinstance(e, MessageEndEvent) and e.message is result]
        assert len(starts) == len(ends) == 1


class _RawCalls:
    """A provider whose replies are tool calls with raw argument text, streamed as a host sends
    them, each reply ending with the given stop reason."""

    api, provider, model = "fake", "fake", "fake-model"

    def __init__(self, replies: list[tuple[list[tuple[str, str]], StopReason]]) -> None:
        self._replies = iter(replies)

    async def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        builder = AssistantMessageBuilder(api=self.api, provider=self.provider, model=self.model)
        calls, stop = next(self._replies, ([], "stop"))
        for call_id, raw in calls:
            for event in builder.tool_call_start(call_id, "read") + builder.tool_call_delta(raw):
                yield event
        for event in builder.text_delta("done") if not calls else []:
            yield event
        for event in builder.finish(stop):
            yield event


async def test_a_call_cut_by_the_output_limit_is_not_run_and_says_why(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("A")
    ran: list[str] = []
    whole, cut = '{"path": "a"}', '{"path": "a'
    provider = _RawCalls(
        [
            ([("c1", whole), ("c2", cut)], "length"),  # the limit stopped the stream inside c2
            ([("c3", whole)], "length"),  # a whole call that ends at the limit runs
            ([("c4", cut)], "toolUse"),  # broken JSON without the limit: not run either
        ]
    )
    _, messages = await run(LoopConfig(provider=provider, tools=[read_tool(tmp_path, ran)]))
    assert shape(messages) == "U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A[c4] R(c4) A"
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolResultMessage)}
    assert _text(results["c2"]) == CUT_OFF and results["c2"].is_error
    assert _text(results["c4"]).startswith("Tool call not run: its arguments are not valid JSON")
    assert _text(results["c1"]) == _text(results["c3"]) == "A"
    assert ran == ["a", "a"]
