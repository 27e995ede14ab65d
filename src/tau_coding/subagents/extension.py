"""Subagents as a built-in extension: the ``task`` tool and ``/agents``, on the public API.

Everything here goes through ``ExtensionAPI``: the tool is registered with ``register_tool``,
the command with ``register_command``, transcripts are kept with ``append_entry`` and the
parent's model is read from ``tau.session``. The composition root supplies how children are
made (``ChildFactory``: models, providers, the system prompt), as it does for Tau's own tools.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tau_coding.subagents.definitions import AgentDefinition
from tau_coding.subagents.discovery import load_agents
from tau_coding.subagents.factory import ChildFactory, Parent
from tau_coding.subagents.task_tool import create_task_tool, task_call_line

if TYPE_CHECKING:
    from tau_coding.extensions.api import ExtensionAPI

AGENTS_DESCRIPTION = "list the agents the task tool can start (built-in, ~/.tau/agents, .tau/agents)"


def agents_listing(agents: Mapping[str, AgentDefinition]) -> str:
    """``/agents``'s text: one line per agent, with its tools, model and where it is defined."""
    lines = ["Agents (task tool):"]
    for agent in agents.values():
        tools = ", ".join(agent.tools) if agent.tools is not None else "all coding tools"
        model = agent.model or "the session's model"
        lines.append(f"  {agent.name} — {agent.description or '(no description)'}")
        lines.append(f"      tools: {tools}; model: {model}; from {agent.source}")
    return "\n".join(lines)


def subagents_extension(
    make_factory: Callable[[Callable[[], Parent]], ChildFactory],
    dirs: Sequence[Path],
    warn: Callable[[str], object],
) -> Callable[[ExtensionAPI], None]:
    """The built-in extension's part for subagents: ``task`` (depth 0) and ``/agents``.

    ``dirs`` are searched for definitions on every call (discovery.py), so a file written
    during the session is used by the next task."""

    def activate(tau: ExtensionAPI) -> None:
        def parent() -> Parent:
            session = tau.session
            harness = session.harness
            return Parent(session.model, harness.provider, session.thinking_level, harness.before_tool_call)

        warned: set[str] = set()

        def warn_once(line: str) -> None:  # definitions are read again on every call
            if line not in warned:
                warned.add(line)
                warn(line)

        def agents() -> dict[str, AgentDefinition]:
            return load_agents(dirs, warn_once)

        factory = make_factory(parent)

        def record(data: dict[str, object]) -> None:
            from tau_coding.subagents.transcript import ENTRY_TYPE  # with the first finished child

            tau.append_entry(ENTRY_TYPE, data)

        spawner = factory.spawner(agents, record)
        tau.register_tool(
            create_task_tool(spawner, 0, description_agents=agents()), render_call=task_call_line
        )

        def list_agents(args: str) -> str:
            del args
            return agents_listing(agents())

        tau.register_command("agents", list_agents, description=AGENTS_DESCRIPTION)

    return activate
