"""AgentHarness: the transcript across runs, and the one run that may be going on.

``run_agent_loop`` does one run; the harness keeps the record between runs, owns the queues
that steering and follow-up messages wait in, hands each run a fresh CancellationToken, and
tells subscribers every event. One run at a time: starting a second is an error unless the
caller steers or queues a follow-up instead.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Sequence
from contextlib import aclosing
from typing import Literal, TypeAlias

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent, TextContent
from tau_agent.event_batch import EventBatch, flat
from tau_agent.events import AgentEvent
from tau_agent.hooks import AfterToolCall, BeforeToolCall, ConvertToLlm, FinishMessage, TransformContext
from tau_agent.loop import LoopConfig, run_agent_batches
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage, convert_to_llm
from tau_agent.provider import ModelProvider, StreamOptions
from tau_agent.tool_execution import INTERRUPTED
from tau_agent.tools import AgentTool, ExecutionMode

QueueMode: TypeAlias = Literal["one-at-a-time", "all"]
Listener: TypeAlias = Callable[[AgentEvent], None]


class AgentBusyError(RuntimeError):
    """A run is already going on; steer or follow up instead of prompting."""


class AgentHarness:
    """Owns the record and the queues; delegates each run to ``run_agent_loop``."""

    def __init__(
        self,
        provider: ModelProvider,
        *,
        system_prompt: str = "",
        tools: Sequence[AgentTool] = (),
        messages: Sequence[AgentMessage] = (),
        options: StreamOptions | None = None,
        max_turns: int | None = None,
        tool_execution: ExecutionMode = "parallel",
        steering_mode: QueueMode = "one-at-a-time",
        follow_up_mode: QueueMode = "one-at-a-time",
        convert_to_llm: ConvertToLlm = convert_to_llm,
        transform_context: TransformContext | None = None,
        before_tool_call: BeforeToolCall | None = None,
        after_tool_call: AfterToolCall | None = None,
        repaired: bool = False,
    ) -> None:
        """``repaired``: ``messages`` already give every tool call its result right after its
        reply (as a replayed session state does), so the first run need not scan them."""
        self.provider = provider
        self.system_prompt = system_prompt
        self.tools: list[AgentTool] = list(tools)
        self.options = options or StreamOptions()
        self.max_turns = max_turns
        self.tool_execution: ExecutionMode = tool_execution
        self.steering_mode: QueueMode = steering_mode
        self.follow_up_mode: QueueMode = follow_up_mode
        self.convert_to_llm = convert_to_llm
        self.transform_context = transform_context
        self.before_tool_call = before_tool_call
        self.after_tool_call = after_tool_call
        self.finish_message: FinishMessage | None = None  # a replacement recorded in a message's place
        self._messages: list[AgentMessage] = list(messages)
        self._running = False
        self._current_signal: CancellationToken | None = None
        self._steering_queue: list[AgentMessage] = []
        self._follow_up_queue: list[AgentMessage] = []
        self._listeners: tuple[Listener, ...] = ()  # replaced, never changed: safe to iterate
        # Called with (steering, follow-up) after either queue changed: a message was queued, taken
        # by the loop, or taken back. Frontends show the queues (Pi's ``queue_update``).
        self.on_queue_change: Callable[[Sequence[AgentMessage], Sequence[AgentMessage]], None] | None = None
        self._repaired_upto = len(self._messages) if repaired else 0  # no dangling call before it

    # -- state ------------------------------------------------------------------------------

    @property
    def messages(self) -> list[AgentMessage]:
        """The record. Treat as read-only; use ``replace_messages`` to change it."""
        return self._messages

    @property
    def is_running(self) -> bool:
        return self._running

    @property
    def pending_count(self) -> int:
        return len(self._steering_queue) + len(self._follow_up_queue)

    def replace_messages(self, messages: Sequence[AgentMessage], *, repaired: bool = False) -> None:
        """Swap the record (after a compaction or a switch of branch). Not while running.
        ``repaired`` as for the constructor."""
        self._ensure_idle("replace the transcript")
        self._messages = list(messages)
        self._repaired_upto = len(self._messages) if repaired else 0

    def append_message(self, message: AgentMessage) -> None:
        """Add a message between runs (a user's ``!cmd`` output, an app note). Not while running."""
        self._ensure_idle("append a message")
        self._messages.append(message)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event of every run; returns an unsubscribe function."""
        self._listeners = (*self._listeners, listener)

        def unsubscribe() -> None:
            self._listeners = tuple(item for item in self._listeners if item is not listener)

        return unsubscribe

    # -- runs -------------------------------------------------------------------------------

    def prompt(self, content: str | list[TextContent | ImageContent]) -> AsyncGenerator[AgentEvent, None]:
        """Start a run with a new user message. Events flow once the iterator is consumed."""
        return self.prompt_message(UserMessage(content))

    def prompt_message(self, *messages: AgentMessage) -> AsyncGenerator[AgentEvent, None]:
        return flat(self.prompt_batches(*messages))

    def prompt_batches(self, *messages: AgentMessage) -> AsyncGenerator[AgentEvent | EventBatch, None]:
        """``prompt_message`` with a streaming reply's deltas relayed in batches (event_batch.py)."""
        self._ensure_idle("start a new prompt")
        return self._run(list(messages))

    def continue_(self) -> AsyncGenerator[AgentEvent, None]:
        """Run again from the record as it stands (after an error, an overflow, a restart).

        Queued messages, if any, become the prompts; otherwise the record must end with a user
        or tool-result message, since a model cannot answer its own reply.
        """
        return flat(self.continue_batches())

    def continue_batches(self) -> AsyncGenerator[AgentEvent | EventBatch, None]:
        """``continue_`` with a streaming reply's deltas relayed in batches (event_batch.py).
        Refuses at once, as ``continue_`` does."""
        self._ensure_idle("continue")
        queued = self._drain(self._steering_queue, "all") + self._drain(self._follow_up_queue, "all")
        if not queued:
            last = next((m for m in reversed(self._messages) if not _is_failed_reply(m)), None)
            if last is None or isinstance(last, AssistantMessage):
                raise ValueError(
                    "Nothing to continue from: the transcript must end with a user or tool message"
                )
        return self._run(queued)

    def steer(self, message: AgentMessage | str) -> None:
        """Queue a message for after the current tool call; the reply's remaining calls are skipped."""
        self._steering_queue.append(UserMessage(message) if isinstance(message, str) else message)
        self._queues_changed()

    def follow_up(self, message: AgentMessage | str) -> None:
        """Queue a message for when the run would otherwise stop."""
        self._follow_up_queue.append(UserMessage(message) if isinstance(message, str) else message)
        self._queues_changed()

    def clear_queues(self) -> tuple[list[AgentMessage], list[AgentMessage]]:
        """Take back every queued message (steering, follow-up), e.g. to edit it."""
        steering, follow = self._steering_queue, self._follow_up_queue
        self._steering_queue, self._follow_up_queue = [], []
        if steering or follow:
            self._queues_changed()
        return steering, follow

    @property
    def current_signal(self) -> CancellationToken | None:
        """The running run's token (Esc cancels it); None while idle."""
        return self._current_signal

    def cancel(self, reason: str = "Operation aborted") -> None:
        """Cooperative: the provider and tools observe the token; keep consuming events to the end."""
        if self._current_signal is not None:
            self._current_signal.cancel(reason)

    # -- internals --------------------------------------------------------------------------

    def _ensure_idle(self, what: str) -> None:
        if self._running:
            raise AgentBusyError(f"Cannot {what} while a run is active; steer or queue a follow-up instead")

    def _drain(self, queue: list[AgentMessage], mode: QueueMode) -> list[AgentMessage]:
        if not queue:
            return []
        taken = queue[:] if mode == "all" else queue[:1]
        del queue[: len(taken)]
        self._queues_changed()
        return taken

    def _queues_changed(self) -> None:
        if self.on_queue_change is not None:
            self.on_queue_change(tuple(self._steering_queue), tuple(self._follow_up_queue))

    def _config(self) -> LoopConfig:
        return LoopConfig(
            provider=self.provider,
            system_prompt=self.system_prompt,
            tools=list(self.tools),
            options=self.options,
            max_turns=self.max_turns,
            tool_execution=self.tool_execution,
            convert_to_llm=self.convert_to_llm,
            transform_context=self.transform_context,
            get_steering_messages=lambda: self._drain(self._steering_queue, self.steering_mode),
            get_follow_up_messages=lambda: self._drain(self._follow_up_queue, self.follow_up_mode),
            before_tool_call=self.before_tool_call,
            after_tool_call=self.after_tool_call,
            finish_message=self.finish_message,
        )

    async def _run(self, prompts: list[AgentMessage]) -> AsyncGenerator[AgentEvent | EventBatch, None]:
        self._ensure_idle("start a run")
        self._running = True
        signal = self._current_signal = CancellationToken()
        try:
            repair_dangling_tool_calls(self._messages, self._repaired_upto)
            self._repaired_upto = len(self._messages)
            loop = run_agent_batches(prompts, self._messages, self._config(), signal)
            async with aclosing(loop) as events:
                async for item in events:
                    if type(item) is EventBatch:
                        if self._listeners:  # most runs have none: no walk over the deltas then
                            for event in item.events:
                                for listener in self._listeners:
                                    listener(event)
                    else:
                        for listener in self._listeners:
                            listener(item)  # type: ignore[arg-type]  # not a batch: an event
                    yield item
        finally:
            self._running = False
            self._current_signal = None


def _is_failed_reply(message: AgentMessage) -> bool:
    return isinstance(message, AssistantMessage) and message.stop_reason in ("error", "aborted")


def repair_dangling_tool_calls(messages: list[AgentMessage], start: int = 0) -> int:
    """Give every tool call from ``start`` on without a result an error result, right after its reply.

    Providers refuse a transcript in which a call has no result. The loop closes a failed or
    aborted reply's calls itself; this is the safety net for a run whose consumer stopped
    listening before it could (and for records written by older versions). Returns how many
    results were added.
    """
    added = 0
    index = start
    while index < len(messages):
        message = messages[index]
        index += 1
        if not isinstance(message, AssistantMessage) or not message.tool_calls:
            continue
        answered: set[str] = set()
        end = index
        while end < len(messages) and isinstance(messages[end], ToolResultMessage):
            result = messages[end]
            assert isinstance(result, ToolResultMessage)
            answered.add(result.tool_call_id)
            end += 1
        missing = [
            ToolResultMessage(call.id, call.name, [TextContent(INTERRUPTED)], is_error=True)
            for call in message.tool_calls
            if call.id not in answered
        ]
        messages[end:end] = missing
        added += len(missing)
        index = end + len(missing)
    return added
