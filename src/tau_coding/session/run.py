"""SessionRun: one prompt's run to its settled end, the part of a CodingSession that drives it.

Compaction before and after the run (and after an overflow, then a retry), transient failures
retried after a backoff (agent_retry.py), the stop hooks' continuations, the prompt's
checkpoint (taken meanwhile, recorded once it exists: checkpointing.py), user shell commands
that ran meanwhile joining the record at the end, and ``agent_settled`` last. Every message is
written to the session file on its ``message_end`` before anybody hears of it (persist, then
announce). ``CodingSession`` (coding_session.py) is the only subclass; it sets the attributes
declared here.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from contextlib import aclosing

from tau_agent.event_batch import EventBatch
from tau_agent.events import AgentEvent, MessageEndEvent, MessageUpdateEvent
from tau_agent.harness import AgentHarness
from tau_agent.messages import AgentMessage, AssistantMessage, UserMessage
from tau_agent.provider import RetryNotice
from tau_agent.session.log import SessionLog
from tau_agent.session.state import ModelRef
from tau_ai.model import Model
from tau_coding.session.agent_retry import RETRY_CANCELLED, AgentRetry, step_back_over
from tau_coding.session.checkpointing import PendingCheckpoint, SessionCheckpoints
from tau_coding.session.compactor import SessionCompactor
from tau_coding.session.events import AgentSettledEvent, InputHandledEvent, SessionEvent
from tau_coding.session.hooks import SessionHooks

MAX_STOP_CONTINUATIONS = 8  # a stop hook that always says "keep going" cannot loop forever
SessionListener = Callable[[SessionEvent], None]


class SessionRun:
    """Drives a prompt's run over the attributes below (see the module docstring)."""

    log: SessionLog
    harness: AgentHarness
    compactor: SessionCompactor
    retry: AgentRetry
    hooks: SessionHooks | None
    save_error: str | None
    _model: Model
    _listeners: tuple[SessionListener, ...]
    _delta_listeners: tuple[SessionListener, ...]  # those of _listeners that hear message_update
    _pending: list[SessionEvent]
    _deferred: list[AgentMessage]  # user shell commands that ran during a run
    checkpoints: SessionCheckpoints | None  # a snapshot of the files before each prompt
    _checkpoint: PendingCheckpoint | None  # the running prompt's, until its entry is written

    def _checkpoint_ref(self) -> str:
        """The session a checkpoint belongs to: its file, else its id (CodingSession says)."""
        raise NotImplementedError

    async def checkpoint_ready(self) -> None:
        """Wait until the running prompt's checkpoint holds the files, and record it (at once
        when there is none). Whatever may change the files awaits this first."""
        pending = self._checkpoint
        if pending is not None:
            await pending.ready()
            pending.record(self.log)

    async def _drive(
        self,
        start: Callable[[], AsyncIterator[AgentEvent | EventBatch]],
        *,
        check_first: bool,
        gate: Callable[[], Awaitable[InputHandledEvent | None]] | None = None,
    ) -> AsyncGenerator[SessionEvent | EventBatch, None]:
        """One prompt to its settled end: compaction before and after, a retry after an overflow,
        transient failures retried (``_run_retrying``). ``gate`` (the input hooks) runs first;
        when it answers the input itself, that answer and agent_settled are the whole run. A new
        prompt's checkpoint is taken meanwhile (checkpointing.py) and recorded before
        ``agent_settled``."""
        if gate is not None:
            handled = await gate()
            if handled is not None:
                yield self._announce(handled)
                yield self._announce(AgentSettledEvent())
                return
        self.record_settings()
        checkpoints = self.checkpoints if check_first else None
        mine = None if checkpoints is None else checkpoints.begin(self._checkpoint_ref())
        self._checkpoint = mine
        try:
            compactor = self.compactor
            compactor.begin_prompt()
            self.retry.begin_prompt()
            if check_first and compactor.should_compact():
                async for event in compactor.auto("threshold"):
                    yield self._announce(event)
            async for item in self._run_retrying(start()):
                yield item
            if compactor.settings.enabled:
                async for item in self._recover_from_overflows():
                    yield item
            if self.hooks is not None:  # a stop hook may keep the run going with a new message
                for round_ in range(MAX_STOP_CONTINUATIONS):
                    reply = next(
                        (m for m in reversed(self.harness.messages) if isinstance(m, AssistantMessage)), None
                    )
                    more = await self.hooks.on_stop(round_ > 0, reply)
                    if more is None:
                        break
                    async for item in self._run_retrying(self.harness.prompt_batches(UserMessage(more))):
                        yield item
            last = self.harness.messages[-1] if self.harness.messages else None
            aborted = isinstance(last, AssistantMessage) and last.stop_reason == "aborted"
            if not aborted and compactor.overflowed_reply() is None and compactor.should_compact():
                async for event in compactor.auto("threshold"):
                    yield self._announce(event)
            await self.checkpoint_ready()
            self._checkpoint = None
            deferred, self._deferred = self._deferred, []
            for message in deferred:
                self._record_user_message(message)
            yield self._announce(AgentSettledEvent())
        finally:
            if mine is not None:  # if torn down before its end: recorded only if it is there
                mine.record(self.log)
                mine.drop()
            if self._checkpoint is mine:
                self._checkpoint = None

    async def _recover_from_overflows(self) -> AsyncGenerator[SessionEvent | EventBatch, None]:
        """After a reply that overflowed the context: compact and go on. Again after each later
        overflow, as long as a reply got through since the last compaction, as Pi does: a long
        run overflows more than once, while an overflow straight after compacting would only
        repeat itself."""
        compactor = self.compactor
        while (failed := compactor.overflowed_reply()) is not None:
            compactor.drop_failed_reply(failed)
            async for event in compactor.auto("overflow", will_retry=True):
                yield self._announce(event)
            if not compactor.succeeded:
                return
            got_through = False
            async for item in self._run_retrying(self.harness.continue_batches()):
                if isinstance(item, MessageEndEvent) and isinstance(item.message, AssistantMessage):
                    got_through = got_through or item.message.stop_reason != "error"
                yield item
            if not got_through:
                return

    async def _run_retrying(
        self, run: AsyncIterator[AgentEvent | EventBatch]
    ) -> AsyncGenerator[SessionEvent | EventBatch, None]:
        """Relay ``run``; while it ends with a transient failure, wait, drop the failed reply
        from the context (it stays in the file, on a side branch) and run again."""
        retry = self.retry
        while True:
            # The relay of one run, inline rather than a generator of its own: every streamed
            # delta passes here, and each generator layer costs it a resumption.
            async with aclosing(run) as events:  # type: ignore[type-var]
                async for event in events:
                    if self._pending:
                        for pending in self._take_pending():
                            yield pending
                    if isinstance(event, EventBatch):  # a reply's deltas: nothing here acts on them
                        listeners = self._listeners
                        if listeners:
                            deltas = self._delta_listeners
                            for each in event.events:
                                for listener in deltas if type(each) is MessageUpdateEvent else listeners:
                                    listener(each)
                        yield event
                        continue
                    if isinstance(event, MessageEndEvent):
                        checkpoint = self._checkpoint
                        if checkpoint is not None:  # once taken, its entry goes in before this message
                            checkpoint.record(self.log)
                        self._persist(event.message)  # before announcing
                        if checkpoint is not None and isinstance(event.message, UserMessage):
                            checkpoint.message_written(None if self.save_error else self.log.leaf_id)
                        if isinstance(event.message, AssistantMessage):
                            window = self._model.context_window
                            ended = retry.reply_ended(event.message, self.harness.messages, window)
                            if ended is not None:
                                yield self._announce(ended)
                    listeners = (
                        self._delta_listeners if type(event) is MessageUpdateEvent else self._listeners
                    )
                    for listener in listeners:  # _announce, inline for the same reason
                        listener(event)
                    yield event
            for pending in self._take_pending():
                yield pending
            self.compactor.finish_run()
            plan = retry.plan(self.harness.messages, self._model.context_window)
            if plan is None:
                failure = next(
                    (m for m in reversed(self.harness.messages) if isinstance(m, AssistantMessage)), None
                )
                ended = retry.gave_up((failure.error_message if failure else None) or "Retry stopped")
                if ended is not None:  # the plan changed its mind (retry switched off meanwhile)
                    yield self._announce(ended)
                return
            yield self._announce(retry.start(plan))
            if await retry.wait(plan.delay):
                if step_back_over(self.log, plan.reply):
                    self.compactor.reload()
                else:  # an extension moved the leaf: leave the file alone
                    self.harness.replace_messages([m for m in self.harness.messages if m is not plan.reply])
                try:
                    run = self.harness.continue_batches()
                    continue
                except ValueError as exc:  # nothing a model could answer: the failure stands
                    error = str(exc)
            else:
                error = RETRY_CANCELLED
            ended = retry.gave_up(error)
            if ended is not None:
                yield self._announce(ended)
            return

    def _persist(self, message: AgentMessage) -> None:
        """Append to the session file; if that fails (an unwritable folder, a full disk) the run
        goes on unsaved and ``save_error`` says why (the caller tells the user)."""
        if self.save_error is not None:
            return
        try:
            self.log.append_message(message)
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            self.save_error = f"{exc.strerror or exc}{where}"

    def _announce(self, event: SessionEvent) -> SessionEvent:
        for listener in self._listeners:  # a tuple, replaced (not changed) on (un)subscribe
            listener(event)
        return event

    def _take_pending(self) -> Sequence[SessionEvent]:
        if not self._pending:  # the usual case, once per streamed delta: allocate nothing
            return ()
        pending, self._pending = self._pending, []
        return pending

    def _on_retry(self, notice: RetryNotice) -> None:
        """Called by the provider before it waits to retry: listeners hear of it at once."""
        self._pending.append(self._announce(self.retry.provider_started(notice)))

    def record_settings(self) -> None:
        """Append a model_change and/or thinking_level_change for what the current path does
        not already record; nothing when it records the model and level in force."""
        recorded = self.log.settings()
        model = self._model
        if recorded.model != ModelRef(model.provider, model.id):
            self.log.append_model_change(model.provider, model.id)
        if recorded.thinking_level != self.harness.options.thinking_level:
            self.log.append_thinking_level_change(self.harness.options.thinking_level)

    def _record_user_message(self, message: AgentMessage) -> None:
        self.harness.append_message(message)
        self.log.append_message(message)
