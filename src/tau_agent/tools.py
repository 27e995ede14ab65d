"""AgentTool: what a model can ask the agent to do.

A tool is data plus one async function. ``execute`` returns an ``AgentToolResult``; raising is
allowed and becomes an error result carrying the exception's message, so the model can react.
Tools observe the CancellationToken and may stream progress through ``on_update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias

from tau_agent.cancellation import CancellationToken
from tau_agent.content import TextContent, ToolResultContent

ExecutionMode: TypeAlias = Literal["sequential", "parallel"]


@dataclass(slots=True)
class AgentToolResult:
    """What a tool returns: blocks for the model, ``details`` for the app (diffs, exit codes)."""

    content: list[ToolResultContent]
    details: Any = None
    is_error: bool = False

    @classmethod
    def text(cls, text: str, details: Any = None, *, is_error: bool = False) -> AgentToolResult:
        return cls([TextContent(text)], details, is_error)


ToolUpdate: TypeAlias = Callable[[AgentToolResult], None]


class ToolExecute(Protocol):
    def __call__(
        self,
        tool_call_id: str,
        args: dict[str, Any],
        signal: CancellationToken,
        on_update: ToolUpdate,
    ) -> Awaitable[AgentToolResult]: ...


@dataclass(frozen=True, slots=True)
class AgentTool:
    """A tool the model may call.

    ``parameters`` is a JSON Schema object; arguments are validated (with simple coercion)
    before ``execute`` runs. ``prompt_snippet`` and ``prompt_guidelines`` are offered to the
    system prompt builder. ``execution_mode`` "sequential" makes a reply's calls run one by one
    whenever this tool is among them. ``prepare_arguments`` (Pi's ``prepareArguments``) gets
    the raw arguments before validation and returns the ones to validate: a shim for what
    models send in other shapes (``file_path`` for ``path``); raising makes the call an error
    result with its message.
    """

    name: str
    description: str
    parameters: Mapping[str, Any]
    execute: ToolExecute
    label: str = ""
    prompt_snippet: str | None = None
    prompt_guidelines: tuple[str, ...] = field(default=())
    execution_mode: ExecutionMode = "parallel"
    prepare_arguments: Callable[[dict[str, Any]], dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What a provider is told about a tool: everything except the function."""

    name: str
    description: str
    parameters: Mapping[str, Any]


def tool_spec(tool: AgentTool) -> ToolSpec:
    return ToolSpec(tool.name, tool.description, tool.parameters)
