"""The built-in coding tools, made for one working directory.

``create_coding_tools`` is the one place that knows every tool; the session picks the active
ones by name (``DEFAULT_TOOLS`` unless the user asks for others). The tools of one call
share a lock table, so a write and an edit of the same file never interleave.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from tau_agent.tools import AgentTool
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.file_locks import FileLocks

if TYPE_CHECKING:
    from tau_coding.tools.bash import SandboxChoice

DEFAULT_TOOLS: tuple[str, ...] = ("read", "write", "edit", "bash")
ALL_TOOLS: tuple[str, ...] = ("read", "write", "edit", "bash", "grep", "find", "ls")


def create_coding_tools(
    cwd: Path,
    *,
    settings: ToolSettings | None = None,
    locks: FileLocks | None = None,
    names: Iterable[str] = ALL_TOOLS,
    sandbox: SandboxChoice = None,
) -> dict[str, AgentTool]:
    """The named built-in tools (all by default), by name, working in ``cwd`` (made absolute).

    Each tool's module is imported only when it is asked for, so a session with the default
    four does not pay for the search tools' start-up. Raises KeyError naming an unknown tool.
    ``sandbox`` confines bash's commands (``tau_coding.sandbox``; None: they run unconfined).
    """
    cwd = Path(cwd).expanduser().absolute()
    settings = ToolSettings() if settings is None else settings
    locks = FileLocks() if locks is None else locks
    tools: dict[str, AgentTool] = {}
    for name in names:
        if name == "read":
            from tau_coding.tools.read import create_read_tool

            tools[name] = create_read_tool(cwd, settings)
        elif name == "write":
            from tau_coding.tools.write import create_write_tool

            tools[name] = create_write_tool(cwd, locks)
        elif name == "edit":
            from tau_coding.tools.edit import create_edit_tool

            tools[name] = create_edit_tool(cwd, locks)
        elif name == "bash":
            from tau_coding.tools.bash import create_bash_tool

            tools[name] = create_bash_tool(cwd, settings, sandbox)
        elif name == "grep":
            from tau_coding.tools.grep import create_grep_tool

            tools[name] = create_grep_tool(cwd, settings)
        elif name == "find":
            from tau_coding.tools.find import create_find_tool

            tools[name] = create_find_tool(cwd, settings)
        elif name == "ls":
            from tau_coding.tools.ls import create_ls_tool

            tools[name] = create_ls_tool(cwd, settings)
        else:
            raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(ALL_TOOLS)}")
    return tools


def select_tools(tools: dict[str, AgentTool], names: Iterable[str]) -> list[AgentTool]:
    """The named tools in the order given; raises KeyError naming an unknown tool."""
    chosen: list[AgentTool] = []
    for name in names:
        if name not in tools:
            raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(tools)}")
        chosen.append(tools[name])
    return chosen
