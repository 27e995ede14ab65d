"""The ``task`` tool: the model hands a self-contained job to a child agent and gets its report.

The calls of one reply run at once (the loop runs a reply's tool calls concurrently), at most
``max_parallel`` children of this agent at a time; the rest wait their turn. The result's text
is the child's final report and nothing else, so the parent's context grows by the report
alone. Its ``details`` say which agent and model ran and what the child spent (``usage``, in
the session file's usage format): the session's totals add it once, from this result. A child
that fails (its provider, its budget, a cancel) is an error result carrying the same details.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tau_agent.cancellation import CancellationToken
from tau_agent.events import AgentEvent, MessageEndEvent, ToolExecutionStartEvent
from tau_agent.messages import AgentMessage
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_agent.wire import usage_to_dict
from tau_coding.subagents.definitions import DEFAULT_AGENT, AgentDefinition

if TYPE_CHECKING:  # the child's machinery is imported by the first task, not by every session
    from tau_coding.subagents.child import ChildOutcome, ChildSetup

TOOL_NAME = "task"


class SubagentSetupError(ValueError):
    """The child cannot be started as asked (e.g. its model has no credentials); one line."""


@dataclass(frozen=True, slots=True)
class Spawner:
    """What the ``task`` tool of an agent at ``depth`` (the session's is 0) needs.

    ``agents`` lists the definitions (read on every call, so edited files count); ``setup``
    builds a child's run for a definition at a depth, with ``model`` the name to report
    (raises SubagentSetupError); ``record`` keeps a finished child's transcript entry."""

    agents: Callable[[], Mapping[str, AgentDefinition]]
    setup: Callable[[AgentDefinition, int], tuple[ChildSetup, str]]
    record: Callable[[dict[str, Any]], None]
    max_parallel: int


def _description(agents: Mapping[str, AgentDefinition]) -> str:
    listed = ", ".join(agents)
    return (
        "Run a subagent on a self-contained task with its own context; only its final report comes"
        f" back. Calls in one reply run in parallel. Agents (/agents): {listed}"
    )


PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "description": {"type": "string", "description": "3-6 word label"},
        "prompt": {"type": "string", "description": "All it needs: it sees nothing else"},
        "agent": {"type": "string", "description": f"default {DEFAULT_AGENT}"},
    },
    "required": ["description", "prompt"],
}


def task_call_line(args: Mapping[str, Any]) -> str:
    """A task row's line in the TUI: the call's label (its prompt's start when it has none), and
    the agent when it is not the default one (the arguments' JSON said nothing at a glance)."""
    label = str(args.get("description") or "").strip() or " ".join(str(args.get("prompt") or "").split())[:60]
    agent = args.get("agent")
    return f"{label} ({agent})" if isinstance(agent, str) and agent and agent != DEFAULT_AGENT else label


def create_task_tool(
    spawner: Spawner, depth: int, *, description_agents: Mapping[str, AgentDefinition]
) -> AgentTool:
    """The ``task`` tool of an agent at ``depth``; its children run at ``depth + 1``."""
    gate = asyncio.Semaphore(spawner.max_parallel)

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        from tau_coding.subagents.child import ChildOutcome, run_child
        from tau_coding.subagents.transcript import live_text

        name = str(args.get("agent") or DEFAULT_AGENT)
        label = str(args.get("description") or "").strip()
        prompt = str(args.get("prompt") or "")
        agents = spawner.agents()
        definition = agents.get(name)
        if definition is None:
            return AgentToolResult.text(
                f"Unknown agent {name!r}; available: {', '.join(agents)}", is_error=True
            )
        if not prompt.strip():
            return AgentToolResult.text("The task needs a prompt saying what to do.", is_error=True)
        async with gate:
            if signal.cancelled:
                return AgentToolResult.text("Subagent not started: cancelled", is_error=True)
            try:
                setup, model = spawner.setup(definition, depth + 1)
            except SubagentSetupError as exc:
                return AgentToolResult.text(f"Subagent {name} could not start: {exc}", is_error=True)

            def follow(event: AgentEvent, messages: Sequence[AgentMessage]) -> None:
                if isinstance(event, MessageEndEvent | ToolExecutionStartEvent):
                    on_update(
                        AgentToolResult.text(live_text(name, messages), {"agent": name, "running": True})
                    )

            outcome = ChildOutcome()
            try:
                await run_child(setup, prompt, signal, follow, outcome)
            except asyncio.CancelledError:  # the parent's run is torn down: keep what the child did
                outcome.error = "interrupted"
                _keep(spawner, outcome, tool_call_id, name, label, model, depth + 1)
                raise
        _keep(spawner, outcome, tool_call_id, name, label, model, depth + 1)
        return _result(outcome, name, label, model, setup.notes)

    return AgentTool(
        name=TOOL_NAME,
        label="task",
        description=_description(description_agents),
        parameters=PARAMETERS,
        execute=execute,
        prompt_snippet="Hand a self-contained job to a subagent",
        prompt_guidelines=("Use task for broad searches and independent work that would fill your context.",),
    )


def _keep(
    spawner: Spawner, outcome: ChildOutcome, call_id: str, agent: str, label: str, model: str, depth: int
) -> None:
    from tau_coding.subagents.transcript import entry_data

    data = entry_data(outcome, tool_call_id=call_id, agent=agent, description=label, model=model, depth=depth)
    try:
        spawner.record(data)
    except OSError as exc:  # an unwritable session file loses the transcript, not the report
        outcome.report += f"\n\n(the transcript could not be saved: {exc.strerror or exc})"


def _result(
    outcome: ChildOutcome, agent: str, label: str, model: str, notes: tuple[str, ...]
) -> AgentToolResult:
    details: dict[str, Any] = {
        "agent": agent,
        "description": label,
        "model": model,
        "turns": outcome.turns,
        "usage": usage_to_dict(outcome.usage),
    }
    if notes:
        details["notes"] = list(notes)
    if outcome.error is not None:
        details["error"] = outcome.error
        return AgentToolResult.text(f"Subagent {agent} failed: {outcome.error}", details, is_error=True)
    return AgentToolResult.text(outcome.report or "(the subagent gave no report)", details)
