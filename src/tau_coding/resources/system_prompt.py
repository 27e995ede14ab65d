"""The system prompt: Tau's base instructions, the active tools, and what the user configured.

Layout, top to bottom: the base text (or the user's replacement for it, from ``SYSTEM.md`` or
``--system-prompt``), with the active tools' one-line snippets and their guidelines; appended
texts (``APPEND_SYSTEM.md``, ``--append-system-prompt``); the context files under a
``# Project context`` heading; the skills list (only when a ``read`` tool is active, since the
model needs it to open a skill); then the date and the working directory.

It is deterministic and carries the date but no time, so a provider's prompt cache stays warm
for a whole day. It is kept short: the base text with four tools is under 2 KB.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from tau_coding.resources.context_files import ContextFile
from tau_coding.resources.skill_files import Skill
from tau_coding.resources.skills import format_skills_for_prompt

if TYPE_CHECKING:  # only for annotations: importing tools pulls in asyncio
    from tau_agent.tools import AgentTool

BASE_INTRO = (
    "You are Tau, a coding agent working in a terminal on the user's project. You use tools to read"
    " files, change them and run commands. Do what the user asks; ask a question only when the"
    " request is genuinely ambiguous."
)

BASE_GUIDELINES = (
    "Look before you change anything: read the files involved and check how the code is used.",
    "Keep changes small and focused on the task, in the style of the surrounding code.",
    "Check your work with the tools (run the tests, the build or the program) and say what you"
    " could not check.",
)

CLOSING_GUIDELINE = "Be brief. Refer to files by their path. When you finish, say what you changed."

_SNIPPET_FALLBACK_CHARS = 100


def build_system_prompt(
    *,
    tools: Sequence[AgentTool],
    base_override: str | None,
    append: Sequence[str],
    context_files: Sequence[ContextFile],
    skills: Sequence[Skill],
    cwd: Path,
    today: date,
) -> str:
    """Assemble the system prompt (see the module docstring for the layout)."""
    sections = [base_override.strip() if base_override is not None else base_prompt(tools)]
    sections += [text.strip() for text in append if text.strip()]
    if context_files:
        sections.append(format_context_files(context_files))
    if any(tool.name == "read" for tool in tools):
        skills_block = format_skills_for_prompt(skills)
        if skills_block:
            sections.append(skills_block)
    sections.append(f"Current date: {today.isoformat()}\nCurrent working directory: {cwd}")
    return "\n\n".join(section for section in sections if section)


def base_prompt(tools: Sequence[AgentTool]) -> str:
    """Tau's own instructions for the given tools: what they are and how to work with them."""
    parts = [BASE_INTRO]
    if tools:
        parts.append("Tools:\n" + "\n".join(f"- {tool.name}: {_snippet(tool)}" for tool in tools))
    guidelines = list(BASE_GUIDELINES)
    for tool in tools:
        guidelines += [line for line in tool.prompt_guidelines if line not in guidelines]
    guidelines.append(CLOSING_GUIDELINE)
    parts.append("Guidelines:\n" + "\n".join(f"- {line}" for line in guidelines))
    return "\n\n".join(parts)


def format_context_files(context_files: Sequence[ContextFile]) -> str:
    """Context files under one heading, each under its path; later files are more specific."""
    parts = [
        "# Project context\n\nInstructions from the user's context files, from the most general to"
        " the most specific; follow them."
    ]
    parts += [f"## {file.path}\n\n{file.text.strip()}" for file in context_files]
    return "\n\n".join(parts)


def _snippet(tool: AgentTool) -> str:
    if tool.prompt_snippet:
        return tool.prompt_snippet.strip()
    first_line = tool.description.strip().split("\n", 1)[0]
    if len(first_line) > _SNIPPET_FALLBACK_CHARS:
        return first_line[: _SNIPPET_FALLBACK_CHARS - 1].rstrip() + "…"
    return first_line
