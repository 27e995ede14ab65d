"""Compaction inside a live CodingSession: when to compact, and how the transcript follows.

The session asks ``should_compact`` before each prompt and after each run, and calls
``auto`` (which yields ``compaction_start``/``end``; ``manual`` announces them too) when it says yes; after a reply
that failed with a context overflow it calls ``drop_failed_reply``, compacts and retries.
Every compaction appends an entry to the log, then the harness transcript is replaced by
the log's replay, so what the model sees next is exactly what a reopened session would.

A single run can cross the threshold too (one prompt, many big tool results). The harness
cannot swap its transcript mid-run, so ``transform_context`` (the loop's seam, called before
each model request) compacts the log there and from then on sends the summary plus the
kept tail; ``finish_run`` swaps in the log's replay once the run is over.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import TYPE_CHECKING, Literal

from tau_agent.cancellation import CancellationToken
from tau_agent.harness import AgentBusyError, AgentHarness
from tau_agent.messages import AgentMessage, AssistantMessage
from tau_agent.provider import ModelProvider
from tau_agent.session.entries import BranchSummaryEntry, MessageEntry
from tau_agent.session.log import SessionLog
from tau_agent.tools import tool_spec
from tau_ai.model import Model
from tau_coding.session.compaction.context_usage import ContextUsage, TokenTally, context_usage
from tau_coding.session.compaction.errors import CompactionCancelledError, NothingToCompactError, SummaryError
from tau_coding.session.compaction.result import CompactionResult
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.session.events import CompactionEndEvent, CompactionStartEvent, SessionEvent

if TYPE_CHECKING:
    from tau_coding.session.compaction.summarizer import Summarizer

# The planner, serialiser, summariser and overflow patterns are imported when first needed:
# most runs never compact, and a cold ``tau -p`` should not pay for them.


class SessionCompactor:
    """Compaction state of one session: settings, the summary model, the running compaction."""

    def __init__(
        self,
        log: SessionLog,
        harness: AgentHarness,
        *,
        settings: CompactionSettings,
        current_model: Callable[[], Model],
        provider_factory: Callable[[Model], ModelProvider],
        summary_model: Model | None = None,
    ) -> None:
        self.log = log
        self.harness = harness
        self.settings = settings
        self.summary_model = summary_model
        self._current_model = current_model
        self._provider_factory = provider_factory
        self._signal: CancellationToken | None = None
        self._trust_from = 0  # replies before this index predate the latest compaction
        self.succeeded = False  # whether the latest ``auto`` produced a compaction
        self.gave_up = False  # an automatic compaction failed during this prompt: no more tries
        self.emit: Callable[[SessionEvent], None] = lambda _event: None  # events from inside a run
        self._run_summary: AgentMessage | None = None  # mid-run: the summary sent first...
        self._run_from = 0  # ...then the harness messages from this index on
        self._tally = TokenTally()
        # The window an overflow error stated, when smaller than the model's:
        # ((provider, model id), tokens).
        self._stated_window: tuple[tuple[str, str], int] | None = None
        self.before_compact: Callable[[Literal["manual", "auto"], str], Awaitable[None]] | None = None
        # Extensions' session_before_compact, given (trigger, instructions, tokens before): a
        # summary of their own, or a whole compaction already checked against the log (None:
        # ask the model); it raises CompactionCancelledError to stop the compaction.
        self.custom_summary: (
            Callable[[Literal["manual", "auto"], str, int], Awaitable[str | CompactionResult | None]] | None
        ) = None
        if settings.enabled and harness.transform_context is None:
            harness.transform_context = self.transform

    def window(self) -> int:
        """The context window compaction works to: the current model's, or the smaller one an
        overflow error of that model stated (a local server started with a smaller window than
        its models.json entry says), so the next compactions keep to what the server holds."""
        model = self._current_model()
        stated = self._stated_window
        if stated is not None and stated[0] == (model.provider, model.id):
            return min(model.context_window, stated[1])
        return model.context_window

    @property
    def is_compacting(self) -> bool:
        return self._signal is not None

    def usage(self) -> ContextUsage:
        return self._usage_of(self._view(self.harness.messages))

    def _view(self, messages: list[AgentMessage]) -> list[AgentMessage]:
        if self._run_summary is None:
            return messages
        return [self._run_summary, *messages[self._run_from :]]

    def _usage_of(self, view: list[AgentMessage]) -> ContextUsage:
        harness = self.harness
        trust = (
            self._trust_from if self._run_summary is None else max(0, self._trust_from - self._run_from + 1)
        )
        return context_usage(
            view,
            self.window(),
            system_prompt=harness.system_prompt,
            tools=[tool_spec(t) for t in harness.tools],
            trust_from=trust,
            tally=self._tally,
        )

    async def transform(self, messages: list[AgentMessage], signal: CancellationToken) -> list[AgentMessage]:
        """Before each request of a run: what to send, compacting first when over the threshold."""
        view = self._view(messages)
        if (
            not self.settings.enabled
            or self.gave_up
            or not self.settings.over_threshold(self._usage_of(view))
        ):
            return view
        self.emit(CompactionStartEvent("threshold"))
        holder = self._signal = CancellationToken()
        unlink = signal.on_cancel(lambda: holder.cancel("compaction cancelled"))
        try:
            result = await self._compact_log(self._usage_of(view).tokens, holder)
        except SummaryError as exc:
            cancelled = isinstance(exc, CompactionCancelledError)
            self.gave_up = True
            self.emit(CompactionEndEvent("threshold", None, cancelled, False, _failure(exc, "threshold")))
            return view
        finally:
            unlink()
            self._signal = None
        replay = self.log.state().messages
        kept = len(replay) - 1
        self._run_summary, self._run_from = replay[0], len(messages) - kept
        self._trust_from = len(messages)
        self.emit(CompactionEndEvent("threshold", result))
        return self._view(messages)

    def finish_run(self) -> None:
        """After a run that compacted mid-way: the harness takes the log's replay."""
        if self._run_summary is None:
            return
        added = len(self.harness.messages) - self._trust_from  # messages since the compaction
        self._run_summary = None
        self._run_from = 0
        self.harness.replace_messages(self.log.state().messages, repaired=True)
        self._trust_from = max(0, len(self.harness.messages) - added)

    def should_compact(self) -> bool:
        return self.settings.enabled and not self.gave_up and self.settings.over_threshold(self.usage())

    def begin_prompt(self) -> None:
        """A new prompt: automatic compaction may be tried again."""
        self.gave_up = False

    def cancel(self) -> None:
        if self._signal is not None:
            self._signal.cancel("compaction cancelled")

    def summarizer(self) -> Summarizer:
        from tau_coding.session.compaction.summarizer import Summarizer

        model = self.summary_model or self._current_model()
        if self.summary_model is None and self.window() < model.context_window:
            model = dataclasses.replace(model, context_window=self.window())
        provider = self._provider_factory(model) if self.summary_model else self.harness.provider
        return Summarizer(
            provider,
            model,
            reserve_tokens=self.settings.reserve_for(model.context_window),
            session_id=self.log.header.id,
        )

    def reload(self, messages: list[AgentMessage] | None = None) -> None:
        """Make the harness transcript the log's replay at its current leaf (``messages``: that
        replay, when the caller already has it)."""
        self.harness.replace_messages(self.log.state().messages if messages is None else messages)
        self._trust_from = len(self.harness.messages)

    async def _compact_log(
        self,
        tokens_before: int,
        signal: CancellationToken,
        custom_instructions: str | None = None,
        shrink_tail: bool = False,
        trigger: Literal["manual", "auto"] = "auto",
    ) -> CompactionResult:
        from tau_coding.session.compaction.runner import compact_log

        if self.before_compact is not None:  # PreCompact hooks, extensions' session_before_compact
            await self.before_compact(trigger, custom_instructions or "")
        summary = None
        if self.custom_summary is not None:
            summary = await self.custom_summary(trigger, custom_instructions or "", tokens_before)
        if isinstance(summary, CompactionResult):  # an extension's whole compaction
            from tau_coding.session.compaction.custom import record

            if signal.cancelled:
                raise CompactionCancelledError("compaction cancelled")
            return record(self.log, summary, tokens_before)
        return await compact_log(
            self.log,
            self.summarizer(),
            tokens_before=tokens_before,
            keep_recent_tokens=self.settings.keep_budget(self.window()),
            signal=signal,
            custom_instructions=custom_instructions,
            shrink_tail=shrink_tail,
            keep_all_if_short=trigger == "manual",
            summary=summary,
        )

    async def compact(
        self,
        custom_instructions: str | None = None,
        *,
        overflowed: bool = False,
        trigger: Literal["manual", "auto"] = "manual",
    ) -> CompactionResult:
        """Compact now, keeping the recent tail (less of it after an overflow); raises
        ``SummaryError`` saying why not."""
        if self.harness.is_running or self.is_compacting:
            raise AgentBusyError("Cannot compact while a run is active; wait for it to finish or cancel it")
        signal = self._signal = CancellationToken()
        try:
            result = await self._compact_log(
                self.usage().tokens, signal, custom_instructions, overflowed, trigger
            )
        finally:
            self._signal = None
        self.reload()
        return result

    async def manual(
        self, custom_instructions: str | None, announce: Callable[[SessionEvent], object]
    ) -> CompactionResult:
        """``compact`` as the user asks for it (``/compact``, RPC ``compact``), between
        ``compaction_start``/``compaction_end`` events with reason ``manual``, as Pi announces
        it. A refusal because the session is busy announces nothing."""
        if self.harness.is_running or self.is_compacting:
            raise AgentBusyError("Cannot compact while a run is active; wait for it to finish or cancel it")
        announce(CompactionStartEvent("manual"))
        try:
            result = await self.compact(custom_instructions)
        except CompactionCancelledError:
            announce(CompactionEndEvent("manual", None, aborted=True))
            raise
        except SummaryError as exc:
            announce(CompactionEndEvent("manual", None, error_message=str(exc)))
            raise
        announce(CompactionEndEvent("manual", result))
        return result

    async def auto(
        self, reason: Literal["threshold", "overflow"], *, will_retry: bool = False
    ) -> AsyncGenerator[SessionEvent, None]:
        """Compact with start/end events; ``succeeded`` says how it went. Never raises SummaryError."""
        self.succeeded = False
        yield CompactionStartEvent(reason)
        try:
            result = await self.compact(overflowed=reason == "overflow", trigger="auto")
        except CompactionCancelledError:
            self.gave_up = True
            yield CompactionEndEvent(reason, None, aborted=True)
            return
        except SummaryError as exc:
            self.gave_up = True
            yield CompactionEndEvent(reason, None, error_message=_failure(exc, reason))
            return
        self.succeeded = True
        yield CompactionEndEvent(reason, result, False, will_retry)

    def overflowed_reply(self) -> AssistantMessage | None:
        """The last reply, when it failed because the context was too long."""
        messages = self.harness.messages
        last = messages[-1] if messages else None
        if not isinstance(last, AssistantMessage) or last.stop_reason != "error":
            return None
        from tau_ai.overflow import is_context_overflow

        return last if is_context_overflow(last, self._current_model().context_window) else None

    def drop_failed_reply(self, reply: AssistantMessage) -> None:
        """Step the log back over the overflowed ``reply`` (it stays in the file, on a side
        branch) and reload; a window its error states is kept for the compactions to come."""
        from tau_ai.overflow import stated_context_limit

        stated = stated_context_limit(reply.error_message or "")
        if stated is not None and stated < self.window():
            model = self._current_model()
            self._stated_window = ((model.provider, model.id), stated)
        entry = self.log.tree.get(self.log.leaf_id)
        if isinstance(entry, MessageEntry) and entry.message is reply:
            self.log.navigate(entry.parent_id)
        self.reload()

    async def navigate(
        self,
        entry_id: str | None,
        *,
        summarize: bool,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
    ) -> BranchSummaryEntry | None:
        """Move to ``entry_id``; with ``summarize``, record what the abandoned path did."""
        if self.harness.is_running or self.is_compacting:
            raise AgentBusyError("Cannot switch branch while a run is active")
        if entry_id is not None and entry_id not in self.log.tree:
            raise KeyError(f"no entry {entry_id!r} in this session")
        entry: BranchSummaryEntry | None = None
        if summarize:
            from tau_coding.session.compaction.branch import summarize_branch

            signal = self._signal = CancellationToken()
            try:
                entry = await summarize_branch(
                    self.log, entry_id, self.summarizer(), signal, custom_instructions, replace_instructions
                )
            finally:
                self._signal = None
        else:
            self.log.navigate(entry_id)
        self.reload()
        return entry


def _failure(exc: SummaryError, reason: Literal["threshold", "overflow"]) -> str | None:
    """What an automatic compaction that did not happen reports: nothing when there was
    simply nothing to compact at the threshold (a no-op, as in Pi); after an overflow it
    says why the reply is not retried."""
    if isinstance(exc, CompactionCancelledError):
        return None
    if isinstance(exc, NothingToCompactError) and reason == "threshold":
        return None
    return str(exc)


__all__ = ["SessionCompactor"]
