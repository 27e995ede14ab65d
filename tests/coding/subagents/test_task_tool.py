"""The task tool over scripted providers: parallel limits, budgets, cancel, failure, depth."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.messages import Usage
from tau_agent.provider import Context, StreamOptions
from tau_agent.testing.fake_provider import FakeReply, FunctionProvider, call, fail, reply
from tau_agent.tools import AgentTool, AgentToolResult
from tau_ai.model import Model
from tau_coding.subagents.definitions import BUILTIN_AGENTS, AgentDefinition
from tau_coding.subagents.factory import ChildFactory, Parent
from tau_coding.subagents.limits import SubagentLimits
from tau_coding.subagents.task_tool import create_task_tool
from tau_coding.tools.config import ToolSettings

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")
OTHER = Model("other-model", "fake", "fake", "http://127.0.0.1")
AGENTS = {a.name: a for a in BUILTIN_AGENTS}


def _factory(
    tmp_path: Path, provider: FunctionProvider, limits: SubagentLimits, models: list[Model] | None = None
) -> ChildFactory:
    return ChildFactory(
        tmp_path,
        ToolSettings(),
        limits,
        lambda: models or [MODEL],
        lambda m: provider,
        lambda tools: "base prompt",
        lambda: Parent(MODEL, provider, "low"),
    )


def _tool(
    factory: ChildFactory, records: list[dict[str, Any]], agents: Mapping[str, AgentDefinition] = AGENTS
) -> AgentTool:
    spawner = factory.spawner(lambda: dict(agents), records.append)
    return create_task_tool(spawner, 0, description_agents=agents)


async def _run(
    tool: Any, prompt: str, signal: CancellationToken | None = None, **extra: str
) -> AgentToolResult:
    updates: list[AgentToolResult] = []
    args = {"description": "job", "prompt": prompt, **extra}
    result: AgentToolResult = await tool.execute(
        "call_1", args, signal or CancellationToken(), updates.append
    )
    return result


async def test_no_more_than_max_parallel_children_run_at_once(tmp_path: Path) -> None:
    running, peak = 0, 0

    async def answer(context: Context, options: StreamOptions) -> FakeReply:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.05)
        running -= 1
        return reply("report")

    records: list[dict[str, Any]] = []
    tool = _tool(_factory(tmp_path, FunctionProvider(answer), SubagentLimits(max_parallel=2)), records)
    results = await asyncio.gather(*(_run(tool, f"job {n}") for n in range(5)))
    assert [r.is_error for r in results] == [False] * 5
    assert peak == 2
    assert len(records) == 5


async def test_a_spent_token_budget_stops_the_child_with_a_tool_error(tmp_path: Path) -> None:
    def answer(context: Context, options: StreamOptions) -> FakeReply:
        return reply(call("ls", {}), usage=Usage(input=900, output=200))

    limits = SubagentLimits(max_tokens=2000)
    records: list[dict[str, Any]] = []
    result = await _run(_tool(_factory(tmp_path, FunctionProvider(answer), limits), records), "loop")
    assert result.is_error
    assert "token budget exceeded (2200 of 2000 tokens)" in result.content[0].text  # type: ignore[union-attr]
    assert result.details["usage"]["input"] == 1800
    assert records[0]["error"].startswith("token budget exceeded")


async def test_max_turns_bounds_a_child(tmp_path: Path) -> None:
    provider = FunctionProvider(lambda c, o: reply(call("ls", {})))
    result = await _run(_tool(_factory(tmp_path, provider, SubagentLimits(max_turns=3)), []), "loop")
    assert result.is_error and "max_turns=3" in result.content[0].text  # type: ignore[union-attr]
    assert len(provider.contexts) == 3


async def test_cancelling_the_parent_stops_the_child_and_it_is_a_tool_error(tmp_path: Path) -> None:
    started = asyncio.Event()

    async def answer(context: Context, options: StreamOptions) -> FakeReply:
        started.set()
        await options.signal.wait()
        return fail("aborted")

    signal = CancellationToken()
    tool = _tool(_factory(tmp_path, FunctionProvider(answer), SubagentLimits()), [])
    run = asyncio.ensure_future(_run(tool, "wait", signal))
    await asyncio.wait_for(started.wait(), 5)
    signal.cancel("user pressed Esc")
    result = await asyncio.wait_for(run, 5)
    assert result.is_error and "user pressed Esc" in result.content[0].text  # type: ignore[union-attr]


async def test_a_provider_failure_is_a_tool_error_with_the_usage_so_far(tmp_path: Path) -> None:
    provider = FunctionProvider(lambda c, o: fail("HTTP 500: upstream down"))
    result = await _run(_tool(_factory(tmp_path, provider, SubagentLimits()), []), "x")
    assert result.is_error
    assert "HTTP 500: upstream down" in result.content[0].text  # type: ignore[union-attr]
    assert "usage" in result.details


async def test_a_child_gets_task_only_below_max_depth(tmp_path: Path) -> None:
    provider = FunctionProvider(lambda c, o: reply("ok"))
    records: list[dict[str, Any]] = []
    for depth_limit, expected in ((1, False), (2, True)):
        factory = _factory(tmp_path, provider, SubagentLimits(max_depth=depth_limit))
        setup, _ = factory.setup(AGENTS["general-purpose"], 1, lambda: AGENTS, records.append)
        assert ("task" in [t.name for t in setup.tools]) is expected
        explorer, _ = factory.setup(AGENTS["explorer"], 1, lambda: AGENTS, records.append)
        assert sorted(t.name for t in explorer.tools) == ["find", "grep", "ls", "read"]


async def test_a_definitions_model_and_thinking_are_used_and_an_unknown_model_falls_back(
    tmp_path: Path,
) -> None:
    provider = FunctionProvider(lambda c, o: reply("ok"))
    other = FunctionProvider(lambda c, o: reply("ok"), model="other-model")
    factory = ChildFactory(
        tmp_path,
        ToolSettings(),
        SubagentLimits(),
        lambda: [MODEL, OTHER],
        lambda m: other,
        lambda tools: "base",
        lambda: Parent(MODEL, provider, "low"),
    )
    chosen = AgentDefinition("x", "", "Do.", model="fake/other-model", thinking="high")
    setup, name = factory.setup(chosen, 1, lambda: AGENTS, lambda d: None)
    assert (setup.provider, setup.thinking_level, name) == (other, "high", "fake/other-model")
    unknown = AgentDefinition("y", "", "Do.", model="sonnet-9")
    setup, name = factory.setup(unknown, 1, lambda: AGENTS, lambda d: None)
    assert (setup.provider, setup.thinking_level, name) == (provider, "low", "fake/fake-model")
    assert "not found" in setup.notes[0]


async def test_an_unknown_agent_is_a_tool_error_listing_the_agents(tmp_path: Path) -> None:
    tool = _tool(_factory(tmp_path, FunctionProvider(lambda c, o: reply("x")), SubagentLimits()), [])
    result = await _run(tool, "x", agent="nobody")
    assert result.is_error and "general-purpose, explorer" in result.content[0].text  # type: ignore[union-attr]


async def test_the_report_is_the_childs_last_text_and_the_context_it_saw_is_its_own(tmp_path: Path) -> None:
    provider = FunctionProvider(lambda c, o: reply("final words"))
    records: list[dict[str, Any]] = []
    result = await _run(_tool(_factory(tmp_path, provider, SubagentLimits()), records), "only this")
    assert result.content[0].text == "final words"  # type: ignore[union-attr]
    (context,) = provider.contexts
    assert [m.role for m in context.messages] == ["user"]
    assert "base prompt" in context.system_prompt and "You run as a subagent" in context.system_prompt
    assert [m["role"] for m in records[0]["messages"]] == ["user", "assistant"]


async def test_a_torn_down_run_still_keeps_the_childs_transcript_so_far(tmp_path: Path) -> None:
    asked = asyncio.Event()

    async def answer(context: Context, options: StreamOptions) -> FakeReply:
        if len(context.messages) > 1:  # its second request never ends
            asked.set()
            await asyncio.sleep(60)
        return reply("looking", call("ls", {}))

    records: list[dict[str, Any]] = []
    tool = _tool(_factory(tmp_path, FunctionProvider(answer), SubagentLimits()), records)
    run = asyncio.ensure_future(_run(tool, "look"))
    await asyncio.wait_for(asked.wait(), 5)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    (record,) = records
    assert record["error"] == "interrupted"
    assert [m["role"] for m in record["messages"]] == ["user", "assistant", "toolResult"]


async def test_a_childs_tool_calls_pass_the_parents_gate(tmp_path: Path) -> None:
    from tau_agent.hooks import BeforeToolCallResult, ToolCallContext

    (tmp_path / "secret.txt").write_text("classified")
    seen: list[str] = []

    async def gate(context: ToolCallContext, signal: CancellationToken) -> BeforeToolCallResult | None:
        seen.append(context.tool_call.name)
        if context.tool_call.name == "read":
            return BeforeToolCallResult(block=True, reason="reading is not allowed here")
        return None

    def answer(context: Context, options: StreamOptions) -> FakeReply:
        if context.messages[-1].role == "toolResult":
            return reply("could not read")
        return reply(call("read", {"path": "secret.txt"}))

    provider = FunctionProvider(answer)
    factory = ChildFactory(
        tmp_path,
        ToolSettings(),
        SubagentLimits(),
        lambda: [MODEL],
        lambda m: provider,
        lambda tools: "base",
        lambda: Parent(MODEL, provider, "off", gate),
    )
    records: list[dict[str, Any]] = []
    result = await _run(_tool(factory, records), "read the secret")
    assert seen == ["read"]
    assert result.content[0].text == "could not read"  # type: ignore[union-attr]
    child_result = records[0]["messages"][2]
    assert child_result["isError"] and "reading is not allowed here" in json.dumps(child_result)
    assert "classified" not in json.dumps(records[0]["messages"])
