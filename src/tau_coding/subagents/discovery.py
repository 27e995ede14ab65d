"""Where agent definitions come from, and which one wins when two share a name.

Searched in this order, a later definition replacing an earlier one of the same name: the
built-in ones, ``~/.claude/agents/``, ``$TAU_HOME/agents/`` (``~/.tau/agents/``), and, only
in a trusted project (a project's agent runs with the user's tools and credentials),
``.claude/agents/`` and ``.tau/agents/`` in the working directory. A file that cannot be read
or parsed is one warning and is skipped; the others load.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from tau_coding.config.paths import TauPaths
from tau_coding.subagents.definitions import (
    BUILTIN_AGENTS,
    AgentDefinition,
    AgentDefinitionError,
    parse_agent_file,
)

MAX_FILE_BYTES = 256 * 1024


def agent_dirs(paths: TauPaths, *, project_trusted: bool) -> list[Path]:
    """The folders searched, lowest precedence first (see the module docstring)."""
    dirs = [paths.home / ".claude" / "agents", paths.tau_home / "agents"]
    if project_trusted:
        dirs += [paths.cwd / ".claude" / "agents", paths.cwd / ".tau" / "agents"]
    return dirs


def load_agents(dirs: Sequence[Path], warn: Callable[[str], object]) -> dict[str, AgentDefinition]:
    """Every usable definition by name: the built-in ones, then each folder's ``*.md`` files."""
    agents = {agent.name: agent for agent in BUILTIN_AGENTS}
    for directory in dirs:
        try:
            files = sorted(p for p in directory.iterdir() if p.suffix == ".md" and p.is_file())
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            warn(f"{directory}: cannot list agents: {exc.strerror or exc}")
            continue
        for path in files:
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    raise AgentDefinitionError(f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB")
                text = path.read_text(encoding="utf-8")
                agent = parse_agent_file(text, source=str(path), fallback_name=path.stem)
            except (OSError, UnicodeDecodeError) as exc:
                warn(f"{path}: cannot read: {exc}")
                continue
            except AgentDefinitionError as exc:
                warn(f"{exc}; agent skipped")
                continue
            agents[agent.name] = agent
    return agents
