"""The one place compaction calls a model: turn a plan into summary text.

A ``Summarizer`` sends one request per call (system prompt, one user message, no tools) and
returns the reply's text, or raises ``SummaryError`` saying why (the provider's own error,
an empty reply, or cancellation). ``summarize_plan`` cuts the conversation into pieces that
fit the summarising model's window and folds them into one summary, each piece updating the
notes so far; a split turn's beginning gets its own summary, merged at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import aclosing

from tau_agent.cancellation import CancellationToken
from tau_agent.messages import AgentMessage, AssistantMessage, UserMessage
from tau_agent.provider import Context, ModelProvider, StreamOptions, ThinkingLevel
from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_ai.model import Model
from tau_coding.session.compaction import prompts
from tau_coding.session.compaction.context_usage import CHARS_PER_TOKEN
from tau_coding.session.compaction.errors import CompactionCancelledError, SummaryError
from tau_coding.session.compaction.file_ops import file_lists_text, strip_file_lists
from tau_coding.session.compaction.planner import CompactionPlan
from tau_coding.session.compaction.serialize import chunk_messages

MIN_CHUNK_CHARS = 8_000


class Summarizer:
    """Asks ``provider`` (serving ``model``) for summaries of at most ``max_tokens`` tokens."""

    def __init__(
        self,
        provider: ModelProvider,
        model: Model,
        *,
        reserve_tokens: int,
        thinking_level: ThinkingLevel = "off",
        session_id: str | None = None,
    ) -> None:
        self.provider = provider
        self.model = model
        self.reserve_tokens = reserve_tokens
        self.thinking_level = thinking_level
        self.session_id = session_id
        self.max_tokens = max(256, min(int(reserve_tokens * 0.8), model.max_tokens))

    @property
    def input_budget_chars(self) -> int:
        """How much transcript one request may carry, leaving room for prompt, notes and reply."""
        room = self.model.context_window - self.reserve_tokens - 2_000
        return max(MIN_CHUNK_CHARS, room * CHARS_PER_TOKEN)

    async def ask(self, request: str, signal: CancellationToken, max_tokens: int | None = None) -> str:
        if signal.cancelled:
            raise CompactionCancelledError("compaction cancelled")
        context = Context(prompts.SYSTEM_PROMPT, [UserMessage(request)])
        options = StreamOptions(
            signal=signal,
            thinking_level=self.thinking_level,
            max_tokens=max_tokens or self.max_tokens,
            session_id=self.session_id,
        )
        final: AssistantMessage | None = None
        async with aclosing(self.provider.stream(context, options)) as events:  # type: ignore[type-var]
            async for event in events:
                if isinstance(event, DoneEvent | ErrorEvent):
                    final = event.message
        if signal.cancelled or (final is not None and final.stop_reason == "aborted"):
            raise CompactionCancelledError("compaction cancelled")
        if final is None:
            raise SummaryError("the summarising model sent no reply")
        if final.stop_reason == "error":
            raise SummaryError(f"the summarising model failed: {final.error_message or 'unknown error'}")
        text = final.text.strip()
        if not text:
            raise SummaryError("the summarising model sent an empty summary")
        return text

    async def fold(
        self,
        messages: Sequence[AgentMessage],
        instruction: str,
        signal: CancellationToken,
        *,
        previous: str | None = None,
        custom_instructions: str | None = None,
        at_least_once: bool = False,
    ) -> str | None:
        """Summarise ``messages`` piece by piece, each piece updating the notes so far.
        ``at_least_once``: ask even when there is no message (an empty conversation)."""
        budget = max(MIN_CHUNK_CHARS, self.input_budget_chars - len(previous or ""))
        summary = previous
        chunks = chunk_messages(messages, budget)
        for chunk in chunks or ([""] if at_least_once else []):
            step = instruction if summary is None or instruction is not prompts.INITIAL else prompts.UPDATE
            request = prompts.summary_request(
                chunk, step, previous_summary=summary, custom_instructions=custom_instructions
            )
            summary = await self.ask(request, signal)
        return summary


async def summarize_plan(
    plan: CompactionPlan,
    summarizer: Summarizer,
    signal: CancellationToken,
    custom_instructions: str | None = None,
) -> str:
    """The summary text a compaction entry records for ``plan`` (file lists appended)."""
    history = await summarizer.fold(
        plan.history,
        prompts.UPDATE if plan.previous_summary else prompts.INITIAL,
        signal,
        previous=strip_file_lists(plan.previous_summary) if plan.previous_summary else None,
        custom_instructions=custom_instructions,
        at_least_once=not plan.turn_prefix,  # a plan keeping everything still gets a summary
    )
    summary = history or ""
    if plan.turn_prefix:
        prefix = await summarizer.fold(
            plan.turn_prefix, prompts.TURN_PREFIX, signal, custom_instructions=custom_instructions
        )
        if prefix:
            summary = prompts.merge_turn_prefix(summary, prefix)
    if not summary.strip():
        raise SummaryError("nothing in the conversation could be summarised")
    files = file_lists_text(plan.file_ops)
    return f"{summary}\n\n{files}" if files else summary


__all__ = ["CompactionCancelledError", "Summarizer", "SummaryError", "summarize_plan"]
