"""Context files: AGENTS.md (or CLAUDE.md) instructions gathered from TAU_HOME and the project.

One file per directory, ``AGENTS.md`` preferred over ``CLAUDE.md``. TAU_HOME comes first, then
every directory from the filesystem root down to the working directory (not stopped at a git
root), so more specific instructions come later and read as refinements. A file reached twice
(TAU_HOME inside the working directory's ancestry) is included once, at its first position.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.resources.text_files import FileIdentity, file_identity, read_resource_text

CONTEXT_FILE_NAMES = ("AGENTS.md", "CLAUDE.md")


@dataclass(frozen=True, slots=True)
class ContextFile:
    """One context file (``AGENTS.md`` or ``CLAUDE.md``) as read, with where it was found."""

    path: Path
    text: str


def find_context_file(directory: Path) -> Path | None:
    """The context file of ``directory``: the first of ``CONTEXT_FILE_NAMES`` that is a file."""
    for name in CONTEXT_FILE_NAMES:
        candidate = directory / name
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # e.g. permission denied on the directory
            return None
    return None


def context_directories(cwd: Path, tau_home: Path) -> list[Path]:
    """Where context files are looked for, in prompt order: TAU_HOME, then root down to ``cwd``."""
    cwd = cwd.resolve()
    return [tau_home, *reversed(cwd.parents), cwd]


def load_context_files(cwd: Path, tau_home: Path) -> tuple[list[ContextFile], list[Diagnostic]]:
    """Read every context file, in order; unreadable ones are left out with a diagnostic."""
    files: list[ContextFile] = []
    diagnostics: list[Diagnostic] = []
    seen: set[FileIdentity] = set()
    for directory in context_directories(cwd, tau_home):
        path = find_context_file(directory)
        if path is None:
            continue
        key = file_identity(path)
        if key in seen:
            continue
        seen.add(key)
        text, problems = read_resource_text(path)
        diagnostics.extend(problems)
        if text is not None:
            files.append(ContextFile(path, text))
    return files, diagnostics
