"""Run the tool calls of one reply: every call gets exactly one result, on every path.

Calls are prepared in source order (start event, lookup, validation, before-hook). Allowed
calls then run one by one or concurrently; progress is yielded while they run. Results are
recorded in source order before they are announced, so a consumer that stops listening at
any event leaves a record in which every executed tool has its result. If the run is torn
down while tools are running, they are cancelled and recorded as interrupted.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ToolCall
from tau_agent.events import (
    AgentEvent,
    MessageEndEvent,
    MessageStartEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from tau_agent.hooks import AfterToolCall, BeforeToolCall, FinishMessage, MessageSource, ToolCallContext
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage
from tau_agent.tools import AgentTool, AgentToolResult, ExecutionMode
from tau_agent.validation import ToolArgumentError, validate_arguments

INTERRUPTED = "Tool call interrupted by user"
SKIPPED = "Skipped due to queued user message."
CUT_OFF = (
    "Tool call not run: the reply reached its output token limit while this call's arguments were "
    "still being written, so they may be incomplete. Send the call again, smaller: for a large file, "
    "write the first part and add the rest with further calls."
)


@dataclass(slots=True)
class ToolBatch:
    """What running a reply's calls produced, for the loop to read afterwards."""

    results: list[ToolResultMessage] = field(default_factory=list)
    steering: list[AgentMessage] = field(default_factory=list)


@dataclass(slots=True)
class _Prepared:
    call: ToolCall
    args: dict[str, Any]
    tool: AgentTool | None = None
    context: ToolCallContext | None = None
    result: AgentToolResult | None = None  # set when decided without running
    task: asyncio.Task[AgentToolResult] | None = None


@dataclass(frozen=True, slots=True)
class ToolRunner:
    """The loop's settings for tool execution."""

    tools: Mapping[str, AgentTool]
    mode: ExecutionMode = "parallel"
    before: BeforeToolCall | None = None
    after: AfterToolCall | None = None
    get_steering: MessageSource | None = None
    finish: FinishMessage | None = None  # each result, before it is recorded (not when torn down)


def error_result(text: str) -> AgentToolResult:
    return AgentToolResult.text(text, is_error=True)


def _result_message(prep: _Prepared, result: AgentToolResult) -> ToolResultMessage:
    return ToolResultMessage(
        tool_call_id=prep.call.id,
        tool_name=prep.call.name,
        content=list(result.content),
        details=result.details,
        is_error=result.is_error,
    )


async def execute_tool_calls(
    runner: ToolRunner,
    reply: AssistantMessage,
    messages: list[AgentMessage],
    record: Callable[[AgentMessage], None],
    signal: CancellationToken,
    batch: ToolBatch,
) -> AsyncGenerator[AgentEvent, None]:
    """Yield the events of running ``reply``'s tool calls; results go through ``record``."""
    calls = reply.tool_calls
    sequential = runner.mode == "sequential" or any(
        (t := runner.tools.get(c.name)) is not None and t.execution_mode == "sequential" for c in calls
    )
    if sequential:
        for index, call in enumerate(calls):
            if batch.steering:
                prep = _Prepared(call, call.arguments, result=error_result(SKIPPED))
                yield ToolExecutionStartEvent(call.id, call.name, call.arguments)
            else:
                yield ToolExecutionStartEvent(call.id, call.name, call.arguments)
                prep = await _prepare(runner, reply, call, messages, signal)
            async with aclosing(_run_and_settle([prep], runner, signal, record, batch)) as progress:
                async for event in progress:
                    yield event
            for event in _announce(prep, batch.results[-1]):
                yield event
            if runner.get_steering is not None and not batch.steering and index < len(calls) - 1:
                batch.steering = runner.get_steering()
        if runner.get_steering is not None and not batch.steering:
            batch.steering = runner.get_steering()
        return

    preps: list[_Prepared] = []
    for call in calls:
        yield ToolExecutionStartEvent(call.id, call.name, call.arguments)
        preps.append(await _prepare(runner, reply, call, messages, signal))
    start = len(batch.results)
    async with aclosing(_run_and_settle(preps, runner, signal, record, batch)) as progress:
        async for event in progress:
            yield event
    for prep, message in zip(preps, batch.results[start:], strict=True):
        for event in _announce(prep, message):
            yield event
    if runner.get_steering is not None:
        batch.steering = runner.get_steering()


def unknown_tool_text(name: str, tools: Mapping[str, AgentTool]) -> str:
    """Pi's words, then the tools there are and the nearest name: a small model that misspells
    a tool (``reed``) finds the right one in the reply instead of guessing again."""
    if not tools:
        return f"Tool {name} not found"
    import difflib  # only on this (rare) path

    near = difflib.get_close_matches(name, list(tools), n=1, cutoff=0.6)
    hint = f" Did you mean {near[0]}?" if near else ""
    return f"Tool {name} not found.{hint} Available tools: {', '.join(tools)}."


async def _prepare(
    runner: ToolRunner,
    reply: AssistantMessage,
    call: ToolCall,
    messages: Sequence[AgentMessage],
    signal: CancellationToken,
) -> _Prepared:
    if call.arguments_error is not None and reply.stop_reason == "length" and reply.content[-1] is call:
        # The output limit stopped the stream inside this call: say so, so the model sends less
        # rather than the same call again. (Its JSON is unfinished, so it never runs.)
        return _Prepared(call, call.arguments, result=error_result(CUT_OFF))
    tool = runner.tools.get(call.name)
    if tool is None:
        return _Prepared(
            call, call.arguments, result=error_result(unknown_tool_text(call.name, runner.tools))
        )
    if call.arguments_error is not None:
        return _Prepared(call, call.arguments, result=error_result(call.arguments_error))
    raw = call.arguments
    try:
        if tool.prepare_arguments is not None:
            raw = tool.prepare_arguments(dict(raw))
        args = validate_arguments(call.name, tool.parameters, raw)
    except ToolArgumentError as exc:
        return _Prepared(call, call.arguments, result=error_result(str(exc)))
    except Exception as exc:  # a failing shim: the model hears why, as for a failing tool
        return _Prepared(call, call.arguments, result=error_result(str(exc) or type(exc).__name__))
    context = ToolCallContext(reply, call, args, messages)
    if runner.before is not None:
        try:
            verdict = await runner.before(context, signal)
        except Exception as exc:  # a crashing gate blocks: safer than letting the call through
            return _Prepared(call, args, result=error_result(f"Tool call blocked: gate failed: {exc}"))
        if verdict is not None and verdict.block:
            reason = verdict.reason or "Tool call blocked"
            return _Prepared(call, args, result=error_result(reason))
        if verdict is not None and verdict.args is not None:
            try:
                args = validate_arguments(call.name, tool.parameters, verdict.args)
            except ToolArgumentError as exc:
                return _Prepared(call, verdict.args, result=error_result(f"Rewritten arguments: {exc}"))
            context = ToolCallContext(reply, call, args, messages)
    return _Prepared(call, args, tool, context)


async def _invoke(prep: _Prepared, signal: CancellationToken, updates: asyncio.Queue[Any]) -> AgentToolResult:
    assert prep.tool is not None

    def on_update(partial: AgentToolResult) -> None:
        updates.put_nowait(ToolExecutionUpdateEvent(prep.call.id, prep.call.name, prep.args, partial))

    try:
        return await prep.tool.execute(prep.call.id, prep.args, signal, on_update)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        return error_result(str(exc) or type(exc).__name__)


async def _run(
    preps: list[_Prepared], runner: ToolRunner, signal: CancellationToken
) -> AsyncGenerator[AgentEvent, None]:
    """Start the runnable calls and yield their progress until all have finished.

    On any exit before that (the consumer stopped, the task was cancelled), unfinished calls
    are cancelled and awaited, so each one still ends with a result.
    """
    updates: asyncio.Queue[Any] = asyncio.Queue()
    runnable = [p for p in preps if p.result is None]
    for prep in runnable:
        prep.task = asyncio.ensure_future(_invoke(prep, signal, updates))
    pending: set[asyncio.Future[Any]] = {p.task for p in runnable if p.task is not None}
    try:
        while pending:
            getter = asyncio.ensure_future(updates.get())
            try:
                done, pending_now = await asyncio.wait(
                    pending | {getter}, return_when=asyncio.FIRST_COMPLETED
                )
            finally:
                if not getter.done():
                    getter.cancel()
            pending = {f for f in pending_now if f is not getter}
            if getter in done:
                yield getter.result()
            while not updates.empty():
                yield updates.get_nowait()
    finally:
        unfinished = [p.task for p in runnable if p.task is not None and not p.task.done()]
        for task in unfinished:
            task.cancel()
        if unfinished:
            await asyncio.gather(*unfinished, return_exceptions=True)


async def _run_and_settle(
    preps: list[_Prepared],
    runner: ToolRunner,
    signal: CancellationToken,
    record: Callable[[AgentMessage], None],
    batch: ToolBatch,
) -> AsyncGenerator[AgentEvent, None]:
    """Run, then record every result; if torn down while running, record what each call got."""
    try:
        async with aclosing(_run(preps, runner, signal)) as progress:
            async for event in progress:
                yield event
    except BaseException:
        await _finish(runner, preps, signal, record, batch, run_after_hook=False)
        raise
    await _finish(runner, preps, signal, record, batch)


async def _finish(
    runner: ToolRunner,
    preps: list[_Prepared],
    signal: CancellationToken,
    record: Callable[[AgentMessage], None],
    batch: ToolBatch,
    *,
    run_after_hook: bool = True,
) -> None:
    """Settle each call's result (after-hook included) and record all of them, in order."""
    settled: list[ToolResultMessage] = []
    for prep in preps:
        result = prep.result
        if result is None:
            task = prep.task
            if task is not None and task.done() and not task.cancelled() and task.exception() is None:
                result = task.result()
            else:
                result = error_result(INTERRUPTED)
            if run_after_hook and runner.after is not None and prep.context is not None:
                try:
                    rewritten = await runner.after(prep.context, result, signal)
                except Exception as exc:
                    rewritten = error_result(f"after_tool_call hook failed: {exc}")
                if rewritten is not None:
                    result = rewritten
        prep.result = result
        message = _result_message(prep, result)
        if run_after_hook and runner.finish is not None:
            finished = await runner.finish(message)
            message = finished if isinstance(finished, ToolResultMessage) else message
        settled.append(message)
    for message in settled:
        record(message)
        batch.results.append(message)


def _announce(prep: _Prepared, message: ToolResultMessage) -> list[AgentEvent]:
    result = prep.result
    assert result is not None
    return [
        MessageStartEvent(message),
        MessageEndEvent(message),
        ToolExecutionEndEvent(prep.call.id, prep.call.name, result, result.is_error),
    ]
