"""load_resources: everything the app reads from TAU_HOME and the project, in one call.

The app passes every location in (``tau_home``, ``home``), so nothing here reads environment
variables and tests can point it at temporary directories. Loading never raises for bad files;
all problems are in ``Resources.diagnostics``, in discovery order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.resources.context_files import ContextFile, load_context_files
from tau_coding.resources.prompt_templates import (
    PromptTemplate,
    expand_prompt_template,
    load_prompt_templates,
)
from tau_coding.resources.skill_files import Skill
from tau_coding.resources.skills import expand_skill_command, load_skills
from tau_coding.resources.system_files import load_system_prompt_parts
from tau_coding.resources.system_prompt import build_system_prompt

if TYPE_CHECKING:  # only for annotations: importing tools pulls in asyncio
    from tau_agent.tools import AgentTool


@dataclass(frozen=True, slots=True)
class Resources:
    """What was loaded. ``system_prompt_override`` replaces the base prompt when not ``None``."""

    cwd: Path
    context_files: tuple[ContextFile, ...]
    system_prompt_override: str | None
    append_system_prompt: tuple[str, ...]
    skills: tuple[Skill, ...]
    prompt_templates: tuple[PromptTemplate, ...]
    diagnostics: tuple[Diagnostic, ...]

    def system_prompt(self, tools: Sequence[AgentTool], today: date) -> str:
        """The system prompt for these resources and the active ``tools``."""
        return build_system_prompt(
            tools=tools,
            base_override=self.system_prompt_override,
            append=self.append_system_prompt,
            context_files=self.context_files,
            skills=self.skills,
            cwd=self.cwd,
            today=today,
        )

    def expand_input(self, text: str) -> str:
        """A user's message after ``/skill:name`` and ``/template`` expansion (unchanged otherwise)."""
        expanded = expand_skill_command(text, self.skills)
        if expanded != text:
            return expanded
        return expand_prompt_template(text, self.prompt_templates)


def load_resources(
    cwd: Path,
    tau_home: Path,
    home: Path,
    *,
    no_skills: bool = False,
    no_prompt_templates: bool = False,
    no_context_files: bool = False,
    skill_paths: Sequence[str] = (),
    template_paths: Sequence[str] = (),
    system_prompt_arg: str | None = None,
    append_system_prompt_arg: str | Sequence[str] | None = None,
) -> Resources:
    """Load context files, system prompt parts, skills and templates for a session in ``cwd``.

    ``system_prompt_arg`` / ``append_system_prompt_arg`` are the ``--system-prompt`` and
    ``--append-system-prompt`` values (text, or the path of a file to read); when given they take
    the place of ``SYSTEM.md`` / ``APPEND_SYSTEM.md``. ``skill_paths`` / ``template_paths`` are
    files or folders loaded besides (and before) the discovered ones, even with ``no_skills`` /
    ``no_prompt_templates``, which only stop discovery (as Pi's ``--skill`` with ``--no-skills``).
    ``no_context_files`` leaves AGENTS.md / CLAUDE.md out.
    """
    # Absolute, so skill locations in the prompt can be read from any working directory.
    cwd, tau_home, home = cwd.resolve(), tau_home.absolute(), home.absolute()
    diagnostics: list[Diagnostic] = []
    context_files: list[ContextFile] = []
    if not no_context_files:
        context_files, problems = load_context_files(cwd, tau_home)
        diagnostics += problems
    if isinstance(append_system_prompt_arg, str):
        append_args: Sequence[str] = (append_system_prompt_arg,)
    else:
        append_args = append_system_prompt_arg or ()
    parts, problems = load_system_prompt_parts(
        cwd,
        tau_home,
        home,
        system_prompt_arg=system_prompt_arg,
        append_system_prompt_args=append_args,
    )
    diagnostics += problems
    skills, problems = load_skills(
        cwd, tau_home, home, extra=_paths(skill_paths, cwd, home), discover=not no_skills
    )
    diagnostics += problems
    templates, problems = load_prompt_templates(
        cwd, tau_home, extra=_paths(template_paths, cwd, home), discover=not no_prompt_templates
    )
    diagnostics += problems
    return Resources(
        cwd=cwd,
        context_files=tuple(context_files),
        system_prompt_override=parts.base_override,
        append_system_prompt=parts.append,
        skills=tuple(skills),
        prompt_templates=tuple(templates),
        diagnostics=tuple(diagnostics),
    )


def _paths(given: Sequence[str], cwd: Path, home: Path) -> list[Path]:
    """Paths from the command line or settings: ``~`` is the user's home, relative is to ``cwd``."""
    return [
        home / text[2:] if text.startswith("~/") else cwd / text if not text.startswith("/") else Path(text)
        for text in given
    ]
