from __future__ import annotations

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, Cost, ToolResultMessage, Usage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.log import SessionLog
from tau_agent.session.stats import session_stats
from tau_agent.session.storage import InMemorySessionStorage


def test_stats_count_roles_tool_calls_tokens_and_cost_on_every_branch() -> None:
    log = SessionLog(InMemorySessionStorage(SessionHeader.new("/p")))
    first = log.append_message(UserMessage("go"))
    log.append_message(
        AssistantMessage(
            [TextContent("x"), ToolCall("a", "read"), ToolCall("b", "bash")],
            usage=Usage(100, 10, 50, 5, 0, 165, Cost(total=0.25)),
            stop_reason="toolUse",
        )
    )
    log.append_message(ToolResultMessage("a", "read", [TextContent("r")]))
    log.append_model_change("p", "m")
    log.navigate(first.id)
    log.append_message(
        AssistantMessage([TextContent("other branch")], usage=Usage(1, 2, cost=Cost(total=0.5)))
    )
    stats = session_stats(log.entries)
    assert stats.to_dict() == {
        "userMessages": 1,
        "assistantMessages": 2,
        "toolCalls": 2,
        "toolResults": 1,
        "totalMessages": 4,
        "tokens": {"input": 101, "output": 12, "cacheRead": 50, "cacheWrite": 5, "total": 168},
        "cost": 0.75,
    }
