"""SYSTEM.md and APPEND_SYSTEM.md, and the ``--system-prompt`` / ``--append-system-prompt`` values.

Precedence, for each of the two: the command-line value, else the project's ``.tau/<NAME>`` (in
the working directory), else ``TAU_HOME/<NAME>``; only the first found is used, as in Pi.
``SYSTEM.md`` replaces Tau's base prompt; ``APPEND_SYSTEM.md`` is added after it. A command-line
value that names an existing file is read from that file, otherwise it is the text itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.resources.text_files import read_resource_text

SYSTEM_FILE = "SYSTEM.md"
APPEND_SYSTEM_FILE = "APPEND_SYSTEM.md"
PROJECT_DIR = ".tau"

_MAX_PATH_CHARS = 4096


@dataclass(frozen=True, slots=True)
class SystemPromptParts:
    """``base_override`` replaces the base prompt when set; ``append`` texts follow it, in order."""

    base_override: str | None
    append: tuple[str, ...]


def discover_prompt_file(cwd: Path, tau_home: Path, name: str) -> Path | None:
    """The project's ``.tau/<name>`` if it exists, else ``TAU_HOME/<name>`` if it exists."""
    for candidate in (cwd / PROJECT_DIR / name, tau_home / name):
        try:
            if candidate.exists():
                return candidate
        except OSError:
            continue
    return None


def resolve_prompt_arg(value: str, cwd: Path, home: Path) -> tuple[str | None, list[Diagnostic]]:
    """A command-line prompt value: the file it names (relative to ``cwd``, ``~`` = ``home``), else itself.

    A value that names a file which cannot be read gives ``None`` and an error, rather than
    silently sending the path as the prompt.
    """
    path = _as_existing_path(value, cwd, home)
    if path is None:
        return value, []
    return read_resource_text(path)


def load_system_prompt_parts(
    cwd: Path,
    tau_home: Path,
    home: Path,
    *,
    system_prompt_arg: str | None = None,
    append_system_prompt_args: Sequence[str] = (),
) -> tuple[SystemPromptParts, list[Diagnostic]]:
    """Resolve the base override and the appended texts, following the precedence above."""
    diagnostics: list[Diagnostic] = []

    def read(path: Path | None) -> str | None:
        if path is None:
            return None
        text, problems = read_resource_text(path)
        diagnostics.extend(problems)
        return text

    def from_arg(value: str) -> str | None:
        text, problems = resolve_prompt_arg(value, cwd, home)
        diagnostics.extend(problems)
        return text

    if system_prompt_arg is not None:
        base = from_arg(system_prompt_arg)
    else:
        base = read(discover_prompt_file(cwd, tau_home, SYSTEM_FILE))
    if append_system_prompt_args:
        appended = [from_arg(value) for value in append_system_prompt_args]
    else:
        appended = [read(discover_prompt_file(cwd, tau_home, APPEND_SYSTEM_FILE))]
    append = tuple(text for text in appended if text is not None and text.strip())
    return SystemPromptParts(base, append), diagnostics


def _as_existing_path(value: str, cwd: Path, home: Path) -> Path | None:
    if not value or "\n" in value or "\0" in value or len(value) > _MAX_PATH_CHARS:
        return None
    # ``cwd / value`` is ``value`` itself when the value is absolute.
    path = home / value[2:] if value == "~" or value.startswith("~/") else cwd / value
    try:
        return path if path.exists() else None
    except (OSError, ValueError):
        return None
