"""The task list and subagents, as parts of the built-in extension, made for one session.

Both are on unless the tools are switched off: ``--no-tools`` removes them, and a tool list
(``--tools`` or the ``tools`` setting) keeps them only when it names them (``todo``, ``task``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tau_agent.provider import ModelProvider
from tau_agent.tools import AgentTool
from tau_ai.model import Model
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import Settings
from tau_coding.subagents.discovery import agent_dirs
from tau_coding.subagents.extension import subagents_extension
from tau_coding.subagents.factory import ChildFactory, Parent
from tau_coding.subagents.limits import SubagentLimits
from tau_coding.todo.extension import todo_extension
from tau_coding.tools.bash import SandboxChoice
from tau_coding.tools.config import ToolSettings

if TYPE_CHECKING:
    from tau_coding.extensions.api import ExtensionAPI

PART_TOOLS: tuple[str, ...] = ("todo", "task")


def builtin_parts(
    chosen: Sequence[str] | None,
    paths: TauPaths,
    settings: Settings,
    tool_settings: ToolSettings,
    *,
    project_trusted: bool,
    warn: Callable[[str], object],
    models: Callable[[], Sequence[Model]],
    provider_for: Callable[[Model], ModelProvider],
    system_prompt: Callable[[Sequence[AgentTool]], str],
    sandbox: SandboxChoice = None,
) -> list[Callable[[ExtensionAPI], None]]:
    """The parts whose tool ``chosen`` names (None: every part; see the module docstring).
    ``sandbox`` confines children's bash as the session's is."""
    parts: list[Callable[[ExtensionAPI], None]] = []
    if chosen is None or "todo" in chosen:
        parts.append(todo_extension())
    if chosen is None or "task" in chosen:
        limits = SubagentLimits.from_settings(settings.get)

        def factory(parent: Callable[[], Parent]) -> ChildFactory:
            return ChildFactory(
                paths.cwd, tool_settings, limits, models, provider_for, system_prompt, parent, sandbox
            )

        parts.append(subagents_extension(factory, agent_dirs(paths, project_trusted=project_trusted), warn))
    return parts
