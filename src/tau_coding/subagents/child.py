"""One child run: tau_agent's loop with the child's own record, tools, model and budgets.

The child never shares the parent's record, but its tool calls pass the parent's gate: it starts from the task's prompt alone and its
messages stay in its own list. Cancelling the parent's token cancels the child's; a token
budget that is spent cancels it too. Every way a child can end (a reply, a provider failure,
a spent budget, a cancel, an exception in the loop) is a ``ChildOutcome``: nothing raises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field

from tau_agent.cancellation import CancellationToken
from tau_agent.content import text_of
from tau_agent.events import AgentEvent, MessageEndEvent
from tau_agent.hooks import BeforeToolCall
from tau_agent.loop import LoopConfig, run_agent_loop
from tau_agent.messages import AgentMessage, AssistantMessage, Cost, Usage, UserMessage
from tau_agent.provider import ModelProvider, StreamOptions, ThinkingLevel
from tau_agent.tools import AgentTool

CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class ChildSetup:
    """What a child runs with; ``max_tokens`` 0 means no token budget."""

    provider: ModelProvider
    system_prompt: str
    tools: Sequence[AgentTool]
    thinking_level: ThinkingLevel = "off"
    max_turns: int | None = None
    max_tokens: int = 0
    notes: tuple[str, ...] = ()  # what was decided for it (a model it could not have)
    # The parent's gate on tool calls (extensions' tool_call handlers, a permission check):
    # a child may do only what its parent may.
    before_tool_call: BeforeToolCall | None = None


@dataclass(slots=True)
class ChildOutcome:
    """How the child ended: ``error`` None means ``report`` is its final answer."""

    messages: list[AgentMessage] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    report: str = ""
    error: str | None = None
    turns: int = 0


def add_usage(total: Usage, more: Usage) -> Usage:
    """The sum of two usages (tokens and every cost field)."""
    a, b = total.cost, more.cost
    return Usage(
        input=total.input + more.input,
        output=total.output + more.output,
        cache_read=total.cache_read + more.cache_read,
        cache_write=total.cache_write + more.cache_write,
        reasoning=total.reasoning + more.reasoning,
        total_tokens=total.total_tokens + more.total_tokens,
        cost=Cost(
            a.input + b.input,
            a.output + b.output,
            a.cache_read + b.cache_read,
            a.cache_write + b.cache_write,
            a.total + b.total,
        ),
    )


def tokens_of(usage: Usage) -> int:
    """Tokens a budget counts: input, output and cache reads and writes."""
    return usage.input + usage.output + usage.cache_read + usage.cache_write


async def run_child(
    setup: ChildSetup,
    prompt: str,
    signal: CancellationToken,
    on_event: Callable[[AgentEvent, Sequence[AgentMessage]], None] = lambda event, messages: None,
    outcome: ChildOutcome | None = None,
) -> ChildOutcome:
    """Run the child on ``prompt`` until it ends (see the module docstring); ``on_event``
    hears every event of the child's loop with the child's record so far. ``outcome`` (a fresh
    one if not given) fills as the child runs, so a caller whose task is torn down mid-run
    still holds what the child did."""
    token = CancellationToken()
    unlink = signal.on_cancel(lambda: token.cancel(signal.reason or CANCELLED))
    outcome = outcome if outcome is not None else ChildOutcome()
    over_budget: str | None = None
    config = LoopConfig(
        provider=setup.provider,
        system_prompt=setup.system_prompt,
        tools=setup.tools,
        options=StreamOptions(thinking_level=setup.thinking_level),
        max_turns=setup.max_turns,
        before_tool_call=setup.before_tool_call,
    )
    try:
        loop = run_agent_loop([UserMessage(prompt)], outcome.messages, config, token)
        async with aclosing(loop) as events:
            async for event in events:
                if isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
                    outcome.turns += 1
                    outcome.usage = add_usage(outcome.usage, event.message.usage)
                    spent = tokens_of(outcome.usage)
                    if setup.max_tokens and spent > setup.max_tokens and over_budget is None:
                        over_budget = f"token budget exceeded ({spent} of {setup.max_tokens} tokens)"
                        token.cancel(over_budget)
                on_event(event, outcome.messages)
    except Exception as exc:  # a defect below the loop is this child's failure, not the parent's
        outcome.error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    finally:
        unlink()
    last = next((m for m in reversed(outcome.messages) if isinstance(m, AssistantMessage)), None)
    if outcome.error is not None:
        pass
    elif signal.cancelled:
        outcome.error = f"cancelled: {signal.reason}" if signal.reason else CANCELLED
    elif over_budget is not None:
        outcome.error = over_budget
    elif last is None:
        outcome.error = "the child ended without a reply"
    elif last.stop_reason in ("error", "aborted"):
        outcome.error = last.error_message or f"the reply ended with {last.stop_reason}"
    if last is not None:
        outcome.report = text_of(last.content).strip()
    return outcome
