"""The event-stream fold: turns, tokens, cost and the final text, from real JSON-mode lines."""

from __future__ import annotations

import orjson

from tau_agent.content import TextContent
from tau_agent.events import MessageEndEvent, MessageStartEvent, TurnEndEvent
from tau_agent.messages import AssistantMessage, Cost, Usage, UserMessage
from tau_agent.wire_events import event_to_dict
from tau_coding.batch.monitor import RunTally


def _line(event: object) -> bytes:
    return orjson.dumps(event_to_dict(event))  # type: ignore[arg-type]


def _reply(text: str, tokens: int, cost: float) -> AssistantMessage:
    usage = Usage(input=tokens - 10, output=10, total_tokens=tokens, cost=Cost(total=cost))
    return AssistantMessage(content=[TextContent(text)], usage=usage, stop_reason="stop")


def test_turns_tokens_cost_and_the_last_answer_are_tallied() -> None:
    tally = RunTally()
    first, second = _reply("working", 120, 0.01), _reply("all done", 300, 0.02)
    lines = [
        _line(MessageStartEvent(UserMessage(content="hi"))),
        _line(MessageEndEvent(UserMessage(content="hi"))),
        _line(MessageEndEvent(first)),
        _line(TurnEndEvent(first)),
        _line(MessageEndEvent(second)),
        _line(TurnEndEvent(second)),
    ]
    reported = [tally.feed(line) for line in lines]
    assert reported == [0, 0, 120, 0, 300, 0]
    assert (tally.turns, tally.tokens_total, tally.tokens_output, tally.final_text) == (
        2,
        420,
        20,
        "all done",
    )
    assert abs(tally.cost - 0.03) < 1e-12
    assert tally.over_limit(max_tokens=420, max_cost=None) is None
    reason = tally.over_limit(max_tokens=400, max_cost=None)
    assert reason is not None and reason.startswith("max_tokens 400 passed")
    assert (tally.over_limit(None, 0.025) or "").startswith("max_cost 0.025 passed")


def test_a_garbled_line_is_counted_not_fatal() -> None:
    tally = RunTally()
    assert tally.feed(b'{"type": "message_end", "message": [') == 0
    assert tally.undecodable == 1


def test_the_loops_max_turns_notice_is_neither_a_turn_nor_the_answer() -> None:
    tally = RunTally()
    reply = _reply("half way", 50, 0.0)
    stop = AssistantMessage(stop_reason="error", error_message="Agent stopped after max_turns=1")
    for event in (MessageEndEvent(reply), TurnEndEvent(reply), MessageEndEvent(stop), TurnEndEvent(stop)):
        tally.feed(_line(event))
    assert (tally.turns, tally.final_text, tally.error_message) == (
        1,
        "half way",
        "Agent stopped after max_turns=1",
    )
