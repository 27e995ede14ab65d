"""run_agent_loop: one agent run, as an async generator of AgentEvents.

Nothing happens until the generator is iterated; it stops at every event until asked for the
next. The rules (architecture.md, rule 7):

* mutate, then announce: a message is appended to ``messages`` (the caller's list, the
  record) before its ``message_end`` is yielded;
* every exit (no tool calls, ``max_turns``, a failed or aborted reply) closes the open
  ``turn_start``/``turn_end`` and ``agent_start``/``agent_end`` pairs;
* every tool call gets exactly one result (tool_execution.py); the calls of a failed or
  aborted reply get an error result each, recorded and announced before its ``turn_end``.

Steering messages are read after each tool call (the rest of the reply's calls are then
skipped) and after each turn; follow-ups only when the run would otherwise stop.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncGenerator, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from itertools import islice
from typing import Protocol, runtime_checkable

from tau_agent.cancellation import CancellationToken
from tau_agent.content import TextContent
from tau_agent.event_batch import BatchedStream, EventBatch, flat
from tau_agent.events import (
    AgentEndEvent,
    AgentEvent,
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from tau_agent.hooks import (
    AfterToolCall,
    BeforeToolCall,
    ConvertToLlm,
    FinishMessage,
    MessageSource,
    TransformContext,
)
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    LlmMessage,
    ToolResultMessage,
    context_for_model,
    convert_to_llm,
    extend_llm_view,
)
from tau_agent.provider import Context, ModelProvider, StreamOptions
from tau_agent.stream_events import DoneEvent, ErrorEvent, StartEvent
from tau_agent.tool_execution import INTERRUPTED, ToolBatch, ToolRunner, execute_tool_calls
from tau_agent.tools import AgentTool, ExecutionMode, tool_spec

NOT_RUN = "Tool call not run: the reply carrying it failed"


@runtime_checkable
class Closable(Protocol):
    """A provider's stream that can be closed early (every async generator is one)."""

    async def aclose(self) -> object: ...


@dataclass(slots=True)
class LoopConfig:
    """Everything one run needs besides the record. Nothing here is read from the environment."""

    provider: ModelProvider
    system_prompt: str = ""
    tools: Sequence[AgentTool] = ()
    options: StreamOptions = field(default_factory=StreamOptions)
    max_turns: int | None = None
    tool_execution: ExecutionMode = "parallel"
    convert_to_llm: ConvertToLlm = convert_to_llm
    transform_context: TransformContext | None = None
    get_steering_messages: MessageSource | None = None
    get_follow_up_messages: MessageSource | None = None
    before_tool_call: BeforeToolCall | None = None
    after_tool_call: AfterToolCall | None = None
    finish_message: FinishMessage | None = None


def stopped_message(provider: ModelProvider, text: str) -> AssistantMessage:
    """A reply that was never asked for: the run stopped itself and says why."""
    return AssistantMessage(
        api=provider.api,
        provider=provider.provider,
        model=provider.model,
        stop_reason="error",
        error_message=text,
    )


def run_agent_loop(
    prompts: Sequence[AgentMessage],
    messages: list[AgentMessage],
    config: LoopConfig,
    signal: CancellationToken | None = None,
) -> AsyncGenerator[AgentEvent, None]:
    """Run until the model stops asking for tools, a reply fails, or ``max_turns`` calls were made.

    ``prompts`` are appended inside the first turn (none: continue from the record as it is).
    ``agent_end.messages`` holds what this run appended; the final reply is the last of them.
    """
    return flat(run_agent_batches(prompts, messages, config, signal))


async def run_agent_batches(
    prompts: Sequence[AgentMessage],
    messages: list[AgentMessage],
    config: LoopConfig,
    signal: CancellationToken | None = None,
) -> AsyncGenerator[AgentEvent | EventBatch, None]:
    """``run_agent_loop``'s events with a streaming reply's deltas relayed in batches, one per
    network read where the provider streams in batches (event_batch.py); ``flat`` of this is
    ``run_agent_loop``."""
    signal = signal or CancellationToken()
    new: list[AgentMessage] = []

    def record(message: AgentMessage) -> None:
        messages.append(message)
        new.append(message)

    runner = ToolRunner(
        tools={tool.name: tool for tool in config.tools},
        mode=config.tool_execution,
        before=config.before_tool_call,
        after=config.after_tool_call,
        get_steering=config.get_steering_messages,
        finish=config.finish_message,
    )
    view = _ContextView(config, messages)
    turns = 0
    pending: list[AgentMessage] = list(prompts)
    yield AgentStartEvent()
    while True:
        has_tool_calls = True
        while has_tool_calls or pending:
            yield TurnStartEvent()
            for message in pending:
                record(message)
                yield MessageStartEvent(message)
                if config.finish_message is not None:
                    message = await config.finish_message(message)
                    messages[-1] = new[-1] = message  # still the last one recorded
                yield MessageEndEvent(message)
            pending = []

            if config.max_turns is not None and turns >= config.max_turns:
                reply = stopped_message(config.provider, f"Agent stopped after max_turns={config.max_turns}")
                record(reply)
                yield MessageStartEvent(reply)
                yield MessageEndEvent(reply)
                yield TurnEndEvent(reply, [])
                yield AgentEndEvent(new)
                return

            turns += 1
            holder: list[AssistantMessage] = []
            async with aclosing(_stream_reply(config, view, signal, record, holder)) as replies:
                async for event in replies:
                    yield event
            reply = holder[0]
            if reply.stop_reason in ("error", "aborted"):
                closed: list[ToolResultMessage] = []
                for result in unrun_results(reply):  # a failed reply's calls are closed at once
                    record(result)
                    closed.append(result)
                    yield MessageStartEvent(result)
                    yield MessageEndEvent(result)
                yield TurnEndEvent(reply, closed)
                yield AgentEndEvent(new)
                return

            batch = ToolBatch()
            has_tool_calls = bool(reply.tool_calls)
            if has_tool_calls:
                async with aclosing(
                    execute_tool_calls(runner, reply, messages, record, signal, batch)
                ) as tools:
                    async for event in tools:
                        yield event
            yield TurnEndEvent(reply, batch.results)
            if batch.steering:
                pending = batch.steering
            elif config.get_steering_messages is not None and not has_tool_calls:
                pending = config.get_steering_messages()

        follow_ups = config.get_follow_up_messages() if config.get_follow_up_messages else []
        if not follow_ups:
            break
        pending = follow_ups
    yield AgentEndEvent(new)


class _ContextView:
    """What the model is sent, kept in step with the record.

    With the default conversion, each turn converts only the messages appended since the last
    one, so a turn costs O(new messages), not O(record). A context transform is handed the
    record itself (it must not mutate it); when it returns that same list, nothing was changed
    and the incremental view still holds; any other list is converted whole.
    """

    def __init__(self, config: LoopConfig, messages: list[AgentMessage]) -> None:
        self._config = config
        self._messages = messages
        self._converted: list[LlmMessage] = []
        self._upto = 0

    async def build(self, signal: CancellationToken) -> list[LlmMessage]:
        config, messages = self._config, self._messages
        view = messages
        if config.transform_context is not None:
            view = await config.transform_context(messages, signal)
        if view is not messages or config.convert_to_llm is not convert_to_llm:
            self._converted, self._upto = [], 0  # a different view: start over next time
            return config.convert_to_llm(context_for_model(list(view)))
        extend_llm_view(islice(messages, self._upto, None), self._converted)
        self._upto = len(messages)
        return list(self._converted)


async def _stream_reply(
    config: LoopConfig,
    view: _ContextView,
    signal: CancellationToken,
    record: Callable[[AgentMessage], None],
    holder: list[AssistantMessage],
) -> AsyncGenerator[AgentEvent | EventBatch, None]:
    """Stream one reply; record the final message (put in ``holder``) before its message_end."""
    context = Context(
        system_prompt=config.system_prompt,
        messages=await view.build(signal),
        tools=[tool_spec(tool) for tool in config.tools],
    )
    options = dataclasses.replace(config.options, signal=signal)
    final: AssistantMessage | None = None
    partial: AssistantMessage | None = None
    stream = config.provider.stream(context, options)
    try:
        if isinstance(stream, BatchedStream):
            async for batch in stream.batches:
                out: list[AgentEvent] = []
                for event in batch:  # the hot loop: every streamed delta of a batch passes here
                    kind = type(event)
                    if kind is DoneEvent or kind is ErrorEvent:
                        final = event.message  # type: ignore[union-attr]
                        break
                    if partial is None:
                        partial = event.partial  # type: ignore[union-attr]
                        out.append(MessageStartEvent(partial))
                        if kind is StartEvent:
                            continue
                    out.append(MessageUpdateEvent(event.partial, event))  # type: ignore[union-attr]
                if out:
                    yield out[0] if len(out) == 1 else EventBatch(out)
                if final is not None:
                    break
        else:
            async for event in stream:
                if isinstance(event, DoneEvent | ErrorEvent):
                    final = event.message
                    break
                if partial is None:
                    partial = event.partial
                    yield MessageStartEvent(partial)
                    if isinstance(event, StartEvent):
                        continue
                yield MessageUpdateEvent(event.partial, event)
    except Exception as exc:  # a provider broke its contract; keep the run and the record sound
        final = _broken(config.provider, partial, f"Provider error: {exc}" if str(exc) else repr(exc))
    finally:
        if isinstance(stream, Closable):  # an async generator, or a provider's own closable stream
            await stream.aclose()
    if final is None:
        final = _broken(config.provider, partial, "Provider stream ended without a final message")
    if config.finish_message is not None:
        if partial is None:  # announced before the seam runs: its end carries what it returns
            partial = final
            yield MessageStartEvent(final)
        finished = await config.finish_message(final)
        final = finished if isinstance(finished, AssistantMessage) else final
    record(final)
    holder.append(final)
    if partial is None:
        yield MessageStartEvent(final)
    yield MessageEndEvent(final)


def unrun_results(reply: AssistantMessage) -> list[ToolResultMessage]:
    """An error result for each tool call of a failed or aborted ``reply``, none of which ran:
    providers refuse a call without a result, and the record must say what became of it."""
    if not reply.tool_calls:
        return []
    if reply.stop_reason == "aborted":
        text = INTERRUPTED
    else:
        text = f"{NOT_RUN}: {reply.error_message}" if reply.error_message else NOT_RUN
    return [
        ToolResultMessage(call.id, call.name, [TextContent(text)], is_error=True) for call in reply.tool_calls
    ]


def _broken(provider: ModelProvider, partial: AssistantMessage | None, text: str) -> AssistantMessage:
    message = partial if partial is not None else stopped_message(provider, text)
    message.stop_reason = "error"
    message.error_message = text
    return message
