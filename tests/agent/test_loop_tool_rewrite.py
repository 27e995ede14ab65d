"""A before_tool_call hook may replace a call's arguments; the replacement is validated again."""

from __future__ import annotations

from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.hooks import BeforeToolCallResult, ToolCallContext
from tau_agent.loop import LoopConfig
from tau_agent.messages import ToolResultMessage
from tau_agent.testing import FakeProvider, call, reply
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tests.agent.helpers import run

SCHEMA = {"type": "object", "properties": {"limit": {"type": "integer"}}, "required": ["limit"]}


def _recording_tool(seen: list[dict[str, Any]]) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        seen.append(args)
        return AgentToolResult.text("ok")

    return AgentTool("count", "Counts.", SCHEMA, execute)


async def test_rewritten_arguments_reach_the_tool_coerced_by_its_schema() -> None:
    seen: list[dict[str, Any]] = []

    async def halve(ctx: ToolCallContext, signal: CancellationToken) -> BeforeToolCallResult:
        return BeforeToolCallResult(args={"limit": str(ctx.args["limit"] // 2)})

    provider = FakeProvider([reply(call("count", {"limit": 10})), "Ok."])
    await run(LoopConfig(provider=provider, tools=[_recording_tool(seen)], before_tool_call=halve))
    assert seen == [{"limit": 5}]


async def test_a_rewrite_that_breaks_the_schema_becomes_the_error_result() -> None:
    seen: list[dict[str, Any]] = []

    async def spoil(ctx: ToolCallContext, signal: CancellationToken) -> BeforeToolCallResult:
        return BeforeToolCallResult(args={"limit": "many"})

    provider = FakeProvider([reply(call("count", {"limit": 10})), "Ok."])
    _, messages = await run(
        LoopConfig(provider=provider, tools=[_recording_tool(seen)], before_tool_call=spoil)
    )
    (result,) = [m for m in messages if isinstance(m, ToolResultMessage)]
    assert seen == [] and result.is_error
    assert "Rewritten arguments:" in "".join(getattr(b, "text", "") for b in result.content)
