"""Agent definitions: who a child agent is (its instructions, tools, model and thinking level).

A definition is a Markdown file whose front-matter names it (``name``, ``description``,
``tools``, ``model``, ``thinking``) and whose body is the child's instructions. Claude Code's
``.claude/agents/*.md`` files have the same shape, with tool names such as ``Read`` or
``Glob`` and models such as ``sonnet`` or ``inherit``; ``tools`` maps them to Tau's. Two
definitions are built in: ``general-purpose`` and the read-only ``explorer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import get_args

from tau_agent.provider import ThinkingLevel
from tau_coding.resources.frontmatter import FrontmatterError, parse_frontmatter, split_frontmatter

THINKING: tuple[str, ...] = get_args(ThinkingLevel)
DEFAULT_AGENT = "general-purpose"
ALL_CHILD_TOOLS: tuple[str, ...] = ("read", "write", "edit", "bash", "grep", "find", "ls")
READ_ONLY_TOOLS: tuple[str, ...] = ("read", "grep", "find", "ls")

# Claude Code's tool names, as its agent files list them, and the Tau tool each means.
CLAUDE_TOOL_NAMES: dict[str, str] = {
    "read": "read",
    "write": "write",
    "edit": "edit",
    "multiedit": "edit",
    "bash": "bash",
    "grep": "grep",
    "glob": "find",
    "find": "find",
    "ls": "ls",
    "task": "task",
    "todo": "todo",
    "todowrite": "todo",
}


class AgentDefinitionError(ValueError):
    """A definition file cannot be used; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class AgentDefinition:
    """One agent: ``tools`` None means every coding tool; ``model`` None means the parent's."""

    name: str
    description: str
    prompt: str
    tools: tuple[str, ...] | None = None
    model: str | None = None
    thinking: ThinkingLevel | None = None
    source: str = "built-in"


BUILTIN_AGENTS: tuple[AgentDefinition, ...] = (
    AgentDefinition(
        name=DEFAULT_AGENT,
        description="Does a self-contained part of a larger task with the coding tools, then reports.",
        prompt=(
            "You are a subagent: another agent gave you one self-contained task. Do it with the tools,"
            " then end with a report for that agent: what you found or changed, with file paths, and"
            " what you could not do. The report is the only thing it sees."
        ),
    ),
    AgentDefinition(
        name="explorer",
        description="Searches and reads the project (read-only) and reports what it found.",
        prompt=(
            "You are a read-only explorer: find and read what the task asks about, change nothing."
            " End with a concise report listing the relevant files, functions and line numbers, and"
            " the answer to the question. The report is the only thing the caller sees."
        ),
        tools=READ_ONLY_TOOLS,
    ),
)


def tool_names(value: str | Sequence[str]) -> tuple[str, ...]:
    """``tools`` as written (a list or ``"Read, Grep"``), mapped to Tau's names; unknown ones
    (tools Tau does not have, such as ``WebFetch``) are left out."""
    words = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for word in words:
        name = CLAUDE_TOOL_NAMES.get(word.strip().lower())
        if name is not None and name not in out:
            out.append(name)
    return tuple(out)


def parse_agent_file(text: str, *, source: str, fallback_name: str) -> AgentDefinition:
    """A definition from a Markdown file's text; ``fallback_name`` (the file's stem) when the
    front-matter names none. Raises AgentDefinitionError for a file that cannot be used."""
    try:
        block, body = split_frontmatter(text)
        meta = parse_frontmatter(block) if block is not None else {}
    except FrontmatterError as exc:
        raise AgentDefinitionError(f"{source}: {exc}") from exc
    name = meta.get("name", fallback_name)
    if not isinstance(name, str) or not name.strip() or any(c.isspace() for c in name.strip()):
        raise AgentDefinitionError(f"{source}: name must be one word")
    description = meta.get("description", "")
    if not isinstance(description, str):
        raise AgentDefinitionError(f"{source}: description must be text")
    raw_tools = meta.get("tools")
    if isinstance(raw_tools, dict):
        raise AgentDefinitionError(f"{source}: tools must be a list of tool names")
    tools = tool_names(raw_tools) if raw_tools not in (None, "") else None
    model = meta.get("model")
    if model is not None and not isinstance(model, str):
        raise AgentDefinitionError(f"{source}: model must be text")
    thinking = meta.get("thinking")
    if thinking is not None and thinking not in THINKING:
        raise AgentDefinitionError(f"{source}: thinking must be one of {', '.join(THINKING)}")
    if not body.strip():
        raise AgentDefinitionError(f"{source}: the body (the agent's instructions) is empty")
    return AgentDefinition(
        name=name.strip(),
        description=description.strip(),
        prompt=body.strip(),
        tools=tools,
        model=None if model in (None, "", "inherit") else model.strip(),
        thinking=thinking,  # type: ignore[arg-type]  # checked against THINKING above
        source=source,
    )
