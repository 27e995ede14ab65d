"""The loop's ``finish_message`` seam: a replacement is recorded, then announced, in the same
balanced event stream."""

from __future__ import annotations

from pathlib import Path

import msgspec

from tau_agent.content import TextContent
from tau_agent.events import AgentEndEvent, MessageEndEvent, MessageStartEvent, TurnEndEvent
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.testing import FakeProvider, call, reply
from tests.agent.helpers import read_tool, types


async def _marked(message: AgentMessage) -> AgentMessage:
    if isinstance(message, AssistantMessage) and message.text:
        return msgspec.structs.replace(message, content=[TextContent(message.text + " [seen]")])
    if isinstance(message, ToolResultMessage):
        return msgspec.structs.replace(message, content=[TextContent("[result hidden]")])
    if isinstance(message, UserMessage):
        return UserMessage("go, politely")
    return message


async def test_replacements_are_recorded_before_their_message_end(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("secret\n")
    provider = FakeProvider([reply(call("read", {"path": "a.txt"}, id="c1")), "Done."])
    record: list[AgentMessage] = []
    config = LoopConfig(provider=provider, tools=[read_tool(tmp_path)], finish_message=_marked)
    events = []
    async for event in run_agent_loop([UserMessage("go")], record, config):
        if isinstance(event, MessageEndEvent):
            assert record[-1] is event.message  # recorded first, then announced
        events.append(event)
    assert [type(m).__name__ for m in record] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResultMessage",
        "AssistantMessage",
    ]
    assert isinstance(record[0], UserMessage) and record[0].content == "go, politely"
    assert isinstance(record[2], ToolResultMessage) and record[2].content == [TextContent("[result hidden]")]
    assert isinstance(record[3], AssistantMessage) and record[3].text == "Done. [seen]"
    assert "secret" not in str(provider.contexts[-1])  # the model was sent the replacement
    starts = sum(isinstance(e, MessageStartEvent) for e in events)
    assert starts == sum(isinstance(e, MessageEndEvent) for e in events) == 4
    last_turn = [e for e in events if isinstance(e, TurnEndEvent)][-1]
    assert last_turn.message is record[3]
    end = events[-1]
    assert isinstance(end, AgentEndEvent) and end.messages == record
    assert types(events)[:3] == ["agent_start", "turn_start", "message_start"]
