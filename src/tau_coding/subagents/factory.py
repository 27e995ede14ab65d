"""How a child is made from a definition: its model, provider, thinking level, tools and prompt.

The model is the definition's (resolved like ``--model``; ``inherit`` or none: the parent's
current one, whose provider is then shared), falling back to the parent's with a note when
the definition names a model Tau does not know. The tools are the definition's (every coding
tool and ``task`` when it names none), never ``todo`` (the list belongs to the session), and ``task`` only
while the child's depth is below ``subagents.maxDepth``. The system prompt is the session's
(tools, project context, date) followed by the definition's instructions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tau_agent.hooks import BeforeToolCall
from tau_agent.provider import ModelProvider, ThinkingLevel
from tau_agent.tools import AgentTool
from tau_ai.model import Model
from tau_coding.config.model_resolve import ModelNotFoundError, resolve_model
from tau_coding.subagents.definitions import ALL_CHILD_TOOLS, AgentDefinition
from tau_coding.subagents.limits import SubagentLimits
from tau_coding.subagents.task_tool import Spawner, SubagentSetupError, create_task_tool
from tau_coding.tools.bash import SandboxChoice
from tau_coding.tools.builtin import create_coding_tools
from tau_coding.tools.config import ToolSettings

if TYPE_CHECKING:  # imported by the first child's setup: a session that starts none never loads it
    from tau_coding.subagents.child import ChildSetup

REPORT_RULE = (
    "# Your task\n\nYou run as a subagent. When you are done, reply with your final report and no"
    " further tool calls: that reply is the only thing the agent who started you will see."
)


@dataclass(frozen=True, slots=True)
class Parent:
    """The agent in force when a child starts: its model, provider, thinking level and the
    gate its tool calls pass (which the child's pass too)."""

    model: Model
    provider: ModelProvider
    thinking_level: ThinkingLevel
    before_tool_call: BeforeToolCall | None = None


@dataclass(frozen=True, slots=True)
class ChildFactory:
    """What the ``task`` tool's child sessions are made from: the parent's working directory,
    tool settings, limits, models, providers, system prompt and sandbox."""

    cwd: Path
    tool_settings: ToolSettings
    limits: SubagentLimits
    models: Callable[[], Sequence[Model]]
    provider_for: Callable[[Model], ModelProvider]
    system_prompt: Callable[[Sequence[AgentTool]], str]
    parent: Callable[[], Parent]
    sandbox: SandboxChoice = None  # the parent's: a child's bash is confined as the parent's is

    def spawner(
        self, agents: Callable[[], Mapping[str, AgentDefinition]], record: Callable[[dict[str, object]], None]
    ) -> Spawner:
        return Spawner(
            agents=agents,
            setup=lambda d, depth: self.setup(d, depth, agents, record),
            record=record,
            max_parallel=self.limits.max_parallel,
        )

    def setup(
        self,
        definition: AgentDefinition,
        depth: int,
        agents: Callable[[], Mapping[str, AgentDefinition]],
        record: Callable[[dict[str, object]], None],
    ) -> tuple[ChildSetup, str]:
        """The child's run for ``definition`` at ``depth`` and its model's name; raises
        SubagentSetupError when its provider cannot be made."""
        from tau_coding.subagents.child import ChildSetup

        parent = self.parent()
        model, provider, level, notes = parent.model, parent.provider, parent.thinking_level, []
        if definition.model is not None:
            try:
                resolved = resolve_model(definition.model, self.models())
            except ModelNotFoundError:
                notes.append(f"model {definition.model!r} not found; the parent's model ran it")
            else:
                level = resolved.thinking_level or level
                if (resolved.model.provider, resolved.model.id) != (model.provider, model.id):
                    model = resolved.model
                    try:
                        provider = self.provider_for(model)
                    except Exception as exc:  # no credentials, a failing extension provider
                        raise SubagentSetupError(f"model {model.provider}/{model.id}: {exc}") from exc
        if definition.thinking is not None:
            level = definition.thinking
        names = definition.tools if definition.tools is not None else (*ALL_CHILD_TOOLS, "task")
        tools = list(
            create_coding_tools(
                self.cwd,
                settings=self.tool_settings,
                names=[n for n in names if n in ALL_CHILD_TOOLS],
                sandbox=self.sandbox,
            ).values()
        )
        if "task" in names and depth < self.limits.max_depth:
            tools.append(create_task_tool(self.spawner(agents, record), depth, description_agents=agents()))
        prompt = f"{self.system_prompt(tools)}\n\n{definition.prompt}\n\n{REPORT_RULE}"
        setup = ChildSetup(
            provider=provider,
            system_prompt=prompt,
            tools=tools,
            thinking_level=level,
            max_turns=self.limits.max_turns,
            max_tokens=self.limits.max_tokens,
            notes=tuple(notes),
            before_tool_call=parent.before_tool_call,
        )
        return setup, f"{model.provider}/{model.id}"
