"""Skills: discovery, name collisions, the prompt's skill list, and ``/skill:name`` expansion.

Where skills are looked for, in precedence order:

1. project: ``.tau/skills`` then ``.agents/skills`` in the working directory, then in each parent
   up to and including the git root (the nearest directory holding ``.git``); without a git
   root, only the working directory;
2. user: ``TAU_HOME/skills`` then ``<home>/.agents/skills``.

In a skills directory every loose ``.md`` file at the top is one skill, and below it every
directory holding a ``SKILL.md`` is one skill (whose subdirectories are its own resources and
are not searched). Hidden entries and ``node_modules`` are skipped. When two skills share a
name the first in the order above wins and the other gets a warning, so project skills override
user ones. The same file reached twice (say the working directory is the home directory) is
loaded once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.resources.skill_files import SKILL_FILE, Skill, SkillSource, parse_skill
from tau_coding.resources.text_files import FileIdentity, file_identity, read_resource_text

PROJECT_SKILL_DIRS = (Path(".tau/skills"), Path(".agents/skills"))
SKILL_COMMAND_PREFIX = "/skill:"
_MAX_DEPTH = 12
_SKILL_COMMAND = re.compile(re.escape(SKILL_COMMAND_PREFIX) + r"(\S+)(?:\s+(.*))?\Z", re.DOTALL)


def find_git_root(cwd: Path) -> Path | None:
    """The nearest of ``cwd`` and its parents holding ``.git`` (a directory, or a worktree's file)."""
    for directory in (cwd, *cwd.parents):
        try:
            if (directory / ".git").exists():
                return directory
        except OSError:
            return None
    return None


def skill_locations(cwd: Path, tau_home: Path, home: Path) -> list[tuple[Path, SkillSource]]:
    """Every skills directory to search, in precedence order (see the module docstring)."""
    cwd = cwd.resolve()
    root = find_git_root(cwd)
    project_dirs = [cwd]
    if root is not None:
        project_dirs += [parent for parent in cwd.parents if parent.is_relative_to(root)]
    located: list[tuple[Path, SkillSource]] = [
        (directory / relative, "project") for directory in project_dirs for relative in PROJECT_SKILL_DIRS
    ]
    located += [(tau_home / "skills", "user"), (home / ".agents" / "skills", "user")]
    return located


def find_skill_files(root: Path) -> tuple[list[Path], list[Diagnostic]]:
    """Skill files under one skills directory, in a stable order; nothing if it does not exist.

    A directory that exists but cannot be listed gives a warning.
    """
    diagnostics: list[Diagnostic] = []
    if _is_file(root / SKILL_FILE):
        return [root / SKILL_FILE], diagnostics
    if not _is_dir(root):
        return [], diagnostics
    entries = _entries(root, diagnostics)
    found = [path for path, is_dir in entries if not is_dir and path.suffix == ".md" and _is_file(path)]
    seen = {file_identity(root)}
    for entry, is_dir in entries:
        if is_dir:
            _collect_skill_roots(entry, found, seen, 1, diagnostics)
    return found, diagnostics


def load_skills(
    cwd: Path, tau_home: Path, home: Path, *, extra: Sequence[Path] = (), discover: bool = True
) -> tuple[list[Skill], list[Diagnostic]]:
    """Load every skill, resolving name collisions; problems become diagnostics.

    ``extra`` are files or folders named by ``--skill`` or the ``skills`` setting: they come
    first, so their names win; a missing one is a warning. ``discover`` False (``--no-skills``)
    skips the usual locations, not ``extra``.
    """
    files: list[tuple[Path, SkillSource]] = []
    diagnostics: list[Diagnostic] = []
    for path in extra:
        if not path.exists():
            diagnostics.append(Diagnostic("warning", str(path), "no such skill file or folder"))
            continue
        found = [path] if _is_file(path) else find_skill_files(path)[0]
        files += [(file, "path") for file in found]
    for directory, source in skill_locations(cwd, tau_home, home) if discover else ():
        paths, problems = find_skill_files(directory)
        files += [(path, source) for path in paths]
        diagnostics += problems
    skills, problems = load_skills_from(files)
    return skills, diagnostics + problems


def load_skills_from(files: Iterable[tuple[Path, SkillSource]]) -> tuple[list[Skill], list[Diagnostic]]:
    """Load the given skill files in order; the first skill of each name wins."""
    skills: dict[str, Skill] = {}
    diagnostics: list[Diagnostic] = []
    seen_files: set[FileIdentity] = set()
    for path, source in files:
        real = file_identity(path)
        if real in seen_files:
            continue
        seen_files.add(real)
        text, problems = read_resource_text(path)
        diagnostics += problems
        if text is None:
            continue
        skill, problems = parse_skill(path, text, source)
        diagnostics += problems
        if skill is None:
            continue
        if skill.name in skills:
            winner = skills[skill.name]
            diagnostics.append(
                Diagnostic(
                    "warning",
                    str(path),
                    f"skill name {skill.name!r} is already used by {winner.file_path} ({winner.source});"
                    " this one is ignored",
                )
            )
            continue
        skills[skill.name] = skill
    return list(skills.values()), diagnostics


def format_skills_for_prompt(skills: Sequence[Skill]) -> str:
    """The system prompt's list of skills the model may use; "" when there are none to show."""
    visible = [skill for skill in skills if not skill.disable_model_invocation]
    if not visible:
        return ""
    lines = [
        "# Skills",
        "",
        "Each skill below is a file of instructions for one kind of task. When a task fits a skill's"
        " description, read that file with the read tool before you start, and follow it. Relative"
        " paths inside a skill are relative to the directory its file is in.",
        "",
        "<available_skills>",
    ]
    for skill in visible:
        lines += [
            "  <skill>",
            f"    <name>{_xml(skill.name)}</name>",
            f"    <description>{_xml(skill.description)}</description>",
            f"    <location>{_xml(str(skill.file_path))}</location>",
            "  </skill>",
        ]
    lines.append("</available_skills>")
    return "\n".join(lines)


def expand_skill_command(text: str, skills: Sequence[Skill]) -> str:
    """``/skill:name args`` becomes the skill's body, marked with its location, then ``args``.

    Text that is not a skill command, or names no loaded skill, is returned unchanged. Skills
    hidden from the model (``disable-model-invocation``) can still be invoked this way.
    """
    match = _SKILL_COMMAND.match(text)
    if match is None:
        return text
    name, args = match.group(1), match.group(2) or ""
    skill = next((skill for skill in skills if skill.name == name), None)
    if skill is None:
        return text
    block = (
        f'<skill name="{_xml(skill.name)}" location="{_xml(str(skill.file_path))}">\n'
        f"Relative paths in this skill are relative to {skill.base_dir}.\n\n"
        f"{skill.body.strip()}\n"
        "</skill>"
    )
    args = args.strip()
    return f"{block}\n\n{args}" if args else block


def _collect_skill_roots(
    directory: Path, found: list[Path], seen: set[FileIdentity], depth: int, diagnostics: list[Diagnostic]
) -> None:
    real = file_identity(directory)
    if real in seen or depth > _MAX_DEPTH:
        return
    seen.add(real)
    if _is_file(directory / SKILL_FILE):
        found.append(directory / SKILL_FILE)
        return
    for entry, is_dir in _entries(directory, diagnostics):
        if is_dir:
            _collect_skill_roots(entry, found, seen, depth + 1, diagnostics)


def _entries(directory: Path, diagnostics: list[Diagnostic]) -> list[tuple[Path, bool]]:
    """Visible entries of ``directory`` as ``(path, is_dir)``, sorted; a warning if unreadable."""
    entries: list[tuple[Path, bool]] = []
    try:
        with os.scandir(directory) as scan:
            for entry in scan:
                if entry.name.startswith(".") or entry.name == "node_modules":
                    continue
                try:
                    entries.append((Path(entry.path), entry.is_dir()))
                except OSError:
                    continue
    except OSError as exc:
        diagnostics.append(
            Diagnostic("warning", str(directory), f"cannot list skills: {exc.strerror or exc}")
        )
        return []
    return sorted(entries)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _xml(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )
