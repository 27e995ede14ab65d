"""How the loop runs tools: lookup, validation, failures, parallelism, hooks, progress."""

from __future__ import annotations

import asyncio
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.events import MessageUpdateEvent, ToolExecutionEndEvent, ToolExecutionUpdateEvent
from tau_agent.hooks import BeforeToolCallResult, ToolCallContext
from tau_agent.loop import LoopConfig
from tau_agent.messages import AssistantMessage, ToolResultMessage
from tau_agent.testing import FakeProvider, call, reply
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tests.agent.helpers import run, shape


def _results(messages: list[Any]) -> list[ToolResultMessage]:
    return [m for m in messages if isinstance(m, ToolResultMessage)]


def _text(result: ToolResultMessage) -> str:
    return "".join(getattr(b, "text", "") for b in result.content)


def _tool(name: str, fn: Any, parameters: dict[str, Any] | None = None, **kw: Any) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        out = fn(args, signal, on_update)
        if asyncio.iscoroutine(out):
            out = await out
        return out if isinstance(out, AgentToolResult) else AgentToolResult.text(str(out))

    return AgentTool(name, f"The {name} tool.", parameters or {"type": "object"}, execute, **kw)


async def test_unknown_tool_gets_an_error_result_and_the_model_goes_on() -> None:
    provider = FakeProvider([reply(call("raed", {"path": "x"}, id="c1")), "Sorry."])
    _, messages = await run(LoopConfig(provider=provider))
    (result,) = _results(messages)
    assert result.is_error and _text(result) == "Tool raed not found"
    assert shape(messages) == "U A[c1] R(c1) A"


async def test_a_misspelt_tool_is_told_the_nearest_name_and_the_tools_there_are() -> None:
    tools = [_tool("read", lambda a, s, u: "x"), _tool("bash", lambda a, s, u: "y")]
    provider = FakeProvider(
        [reply(call("reed", {"path": "x"}, id="c1")), reply(call("zzz", {}, id="c2")), "ok"]
    )
    _, messages = await run(LoopConfig(provider=provider, tools=tools))
    first, second = _results(messages)
    assert _text(first) == "Tool reed not found. Did you mean read? Available tools: read, bash."
    assert _text(second) == "Tool zzz not found. Available tools: read, bash."


async def test_raising_tool_becomes_error_result_with_its_message() -> None:
    def boom(args: Any, signal: Any, up: Any) -> Any:
        raise FileNotFoundError("File not found: nope.txt")

    provider = FakeProvider([reply(call("read", id="c1")), "Ok."])
    _, messages = await run(LoopConfig(provider=provider, tools=[_tool("read", boom)]))
    (result,) = _results(messages)
    assert result.is_error and _text(result) == "File not found: nope.txt"


async def test_invalid_arguments_are_refused_quoting_path_and_value() -> None:
    schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    ran: list[Any] = []
    provider = FakeProvider([reply(call("read", {"path": ["a"]}, id="c1")), "Ok."])
    _, messages = await run(
        LoopConfig(provider=provider, tools=[_tool("read", lambda a, s, u: ran.append(a), schema)])
    )
    (result,) = _results(messages)
    assert result.is_error and ran == []
    assert 'path: expected string, received ["a"] (list)' in _text(result)
    assert 'Received arguments:\n{"path": ["a"]}' in _text(result)


async def test_string_numbers_are_coerced_for_integer_parameters() -> None:
    schema = {"type": "object", "properties": {"limit": {"type": "integer"}}}
    seen: list[Any] = []
    provider = FakeProvider([reply(call("read", {"limit": "5"})), "Ok."])
    await run(LoopConfig(provider=provider, tools=[_tool("read", lambda a, s, u: seen.append(a), schema)]))
    assert seen == [{"limit": 5}]


async def test_parallel_calls_really_run_at_the_same_time() -> None:
    first_waiting = asyncio.Event()

    async def waiter(args: Any, signal: Any, up: Any) -> str:
        first_waiting.set()
        await asyncio.wait_for(second_ran.wait(), 5)
        return "first"

    second_ran = asyncio.Event()

    async def second(args: Any, signal: Any, up: Any) -> str:
        await first_waiting.wait()
        second_ran.set()
        return "second"

    provider = FakeProvider([reply(call("a", id="c1"), call("b", id="c2")), "Ok."])
    _, messages = await run(LoopConfig(provider=provider, tools=[_tool("a", waiter), _tool("b", second)]))
    assert [_text(r) for r in _results(messages)] == ["first", "second"]


async def test_a_sequential_tool_makes_its_reply_run_one_by_one() -> None:
    order: list[str] = []

    async def step(args: Any, signal: Any, up: Any) -> str:
        order.append(f"start {args['n']}")
        await asyncio.sleep(0)
        order.append(f"end {args['n']}")
        return "ok"

    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tool = _tool("step", step, schema, execution_mode="sequential")
    provider = FakeProvider([reply(call("step", {"n": 1}), call("step", {"n": 2})), "Ok."])
    await run(LoopConfig(provider=provider, tools=[tool]))
    assert order == ["start 1", "end 1", "start 2", "end 2"]


async def test_tool_progress_is_yielded_while_the_tool_runs() -> None:
    release = asyncio.Event()

    async def slow(args: Any, signal: Any, on_update: ToolUpdate) -> str:
        on_update(AgentToolResult.text("50%"))
        await asyncio.wait_for(release.wait(), 5)
        return "done"

    provider = FakeProvider([reply(call("slow", id="c1")), "Ok."])
    from tau_agent.loop import run_agent_loop
    from tau_agent.messages import UserMessage

    seen: list[str] = []
    async for event in run_agent_loop(
        [UserMessage("go")], [], LoopConfig(provider=provider, tools=[_tool("slow", slow)])
    ):
        seen.append(event.type)
        if isinstance(event, ToolExecutionUpdateEvent):
            assert event.partial_result.content[0].text == "50%"  # type: ignore[union-attr]
            release.set()  # the tool is still running when its progress arrives
    assert seen.index("tool_execution_update") < seen.index("tool_execution_end")


async def test_before_hook_blocks_with_its_reason_and_tool_never_runs() -> None:
    ran: list[Any] = []

    async def gate(ctx: ToolCallContext, signal: CancellationToken) -> BeforeToolCallResult:
        return BeforeToolCallResult(block=True, reason=f"{ctx.tool_call.name} is not allowed here")

    provider = FakeProvider([reply(call("bash", id="c1")), "Ok."])
    config = LoopConfig(
        provider=provider, tools=[_tool("bash", lambda a, s, u: ran.append(a))], before_tool_call=gate
    )
    _, messages = await run(config)
    (result,) = _results(messages)
    assert ran == [] and result.is_error and _text(result) == "bash is not allowed here"


async def test_crashing_gate_blocks_the_call() -> None:
    ran: list[Any] = []

    async def gate(ctx: ToolCallContext, signal: CancellationToken) -> BeforeToolCallResult:
        raise RuntimeError("policy file unreadable")

    provider = FakeProvider([reply(call("bash", id="c1")), "Ok."])
    config = LoopConfig(
        provider=provider, tools=[_tool("bash", lambda a, s, u: ran.append(a))], before_tool_call=gate
    )
    _, messages = await run(config)
    (result,) = _results(messages)
    assert ran == [] and result.is_error and "policy file unreadable" in _text(result)


async def test_after_hook_rewrites_the_result() -> None:
    async def redact(
        ctx: ToolCallContext, result: AgentToolResult, signal: CancellationToken
    ) -> AgentToolResult:
        return AgentToolResult.text(_text_of(result).replace("hunter2", "[redacted]"))

    def _text_of(result: AgentToolResult) -> str:
        return "".join(getattr(b, "text", "") for b in result.content)

    provider = FakeProvider([reply(call("cat", id="c1")), "Ok."])
    config = LoopConfig(
        provider=provider, tools=[_tool("cat", lambda a, s, u: "pw=hunter2")], after_tool_call=redact
    )
    events, messages = await run(config)
    (result,) = _results(messages)
    assert _text(result) == "pw=[redacted]"
    end = next(e for e in events if isinstance(e, ToolExecutionEndEvent))
    assert _text_of(end.result) == "pw=[redacted]"


async def test_steering_skips_the_rest_of_the_reply_and_goes_next() -> None:
    from tau_agent.messages import UserMessage

    queue: list[Any] = []

    def first(args: Any, signal: Any, up: Any) -> str:
        queue.append(UserMessage("Stop, use the other file."))
        return "one"

    provider = FakeProvider([reply(call("t", id="c1"), call("t", id="c2")), "Switching."])
    drained: list[Any] = []

    def steering() -> list[Any]:
        taken = queue[:]
        queue.clear()
        drained.extend(taken)
        return taken

    config = LoopConfig(
        provider=provider,
        tools=[_tool("t", first, execution_mode="sequential")],
        get_steering_messages=steering,
    )
    _, messages = await run(config)
    assert shape(messages) == "U A[c1,c2] R(c1) R(c2) U A"
    skipped = _results(messages)[1]
    assert skipped.is_error and _text(skipped) == "Skipped due to queued user message."
    sent = provider.contexts[1].messages
    assert isinstance(sent[-1], UserMessage) and sent[-1].content == "Stop, use the other file."


async def test_follow_ups_wait_until_the_run_would_stop() -> None:
    from tau_agent.messages import UserMessage

    follow = [UserMessage("And now the tests.")]
    provider = FakeProvider([reply(call("t", id="c1")), "Done first.", "Done tests."])
    asked: list[int] = []

    def follow_ups() -> list[Any]:
        asked.append(provider.calls)
        taken = follow[:]
        follow.clear()
        return taken

    config = LoopConfig(
        provider=provider, tools=[_tool("t", lambda a, s, u: "ok")], get_follow_up_messages=follow_ups
    )
    events, messages = await run(config)
    assert shape(messages) == "U A[c1] R(c1) A U A"
    assert asked[0] == 2  # first asked after the second reply, not between tool turns
    assert [e.type for e in events].count("agent_start") == 1


async def test_empty_failed_replies_stay_on_record_but_are_not_sent() -> None:
    from tau_agent.messages import UserMessage

    failed = AssistantMessage(stop_reason="error", error_message="overloaded")
    provider = FakeProvider(["Hi again."])
    await run(LoopConfig(provider=provider), "retry", [UserMessage("hi"), failed])
    sent = provider.contexts[0].messages
    assert [m.role for m in sent] == ["user", "user"]


async def test_provider_that_raises_ends_the_run_balanced_with_an_error() -> None:
    class Broken:
        api, provider, model = "x", "x", "x"

        def stream(self, context: Any, options: Any) -> Any:
            async def gen() -> Any:
                raise ConnectionError("socket closed")
                yield  # pragma: no cover

            return gen()

    events, messages = await run(LoopConfig(provider=Broken()))
    assert [e.type for e in events][-3:] == ["message_end", "turn_end", "agent_end"]
    final = messages[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "error"
    assert final.error_message == "Provider error: socket closed"


async def test_streamed_updates_share_one_partial_object() -> None:
    from tau_agent.testing import text

    provider = FakeProvider([reply(text("abcdefghij", chunk_size=1))])
    events, messages = await run(LoopConfig(provider=provider))
    partials = {id(e.message) for e in events if isinstance(e, MessageUpdateEvent)}
    assert len(partials) == 1
    assert isinstance(messages[-1], AssistantMessage) and messages[-1].text == "abcdefghij"


async def test_cancelling_the_token_mid_stream_ends_with_aborted() -> None:
    from tau_agent.loop import run_agent_loop
    from tau_agent.messages import UserMessage
    from tau_agent.testing import text

    signal = CancellationToken()
    provider = FakeProvider([reply(text("a long answer", chunk_size=2), delay=0.01)])
    record: list[Any] = []
    async for event in run_agent_loop([UserMessage("go")], record, LoopConfig(provider=provider), signal):
        if isinstance(event, MessageUpdateEvent) and event.assistant_message_event.type == "text_delta":
            signal.cancel()
    final = record[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "aborted"
