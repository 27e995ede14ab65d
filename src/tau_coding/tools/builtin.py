"""The built-in coding tools, made for one working directory.

``create_coding_tools`` is the one place that knows every tool; the session picks the active
ones by name (``DEFAULT_TOOLS`` unless the user asks for others). The tools of one call
share a lock table, so a write and an edit of the same file never interleave.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tau_agent.tools import AgentTool
from tau_coding.tools.bash import create_bash_tool
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.edit import create_edit_tool
from tau_coding.tools.file_locks import FileLocks
from tau_coding.tools.find import create_find_tool
from tau_coding.tools.grep import create_grep_tool
from tau_coding.tools.ls import create_ls_tool
from tau_coding.tools.read import create_read_tool
from tau_coding.tools.write import create_write_tool

DEFAULT_TOOLS: tuple[str, ...] = ("read", "write", "edit", "bash")
ALL_TOOLS: tuple[str, ...] = ("read", "write", "edit", "bash", "grep", "find", "ls")


def create_coding_tools(
    cwd: Path,
    *,
    settings: ToolSettings | None = None,
    locks: FileLocks | None = None,
) -> dict[str, AgentTool]:
    """Every built-in tool, by name, working in ``cwd`` (made absolute)."""
    cwd = Path(cwd).expanduser().absolute()
    settings = ToolSettings() if settings is None else settings
    locks = FileLocks() if locks is None else locks
    return {
        "read": create_read_tool(cwd, settings),
        "write": create_write_tool(cwd, locks),
        "edit": create_edit_tool(cwd, locks),
        "bash": create_bash_tool(cwd, settings),
        "grep": create_grep_tool(cwd, settings),
        "find": create_find_tool(cwd, settings),
        "ls": create_ls_tool(cwd, settings),
    }


def select_tools(tools: dict[str, AgentTool], names: Iterable[str]) -> list[AgentTool]:
    """The named tools in the order given; raises KeyError naming an unknown tool."""
    chosen: list[AgentTool] = []
    for name in names:
        if name not in tools:
            raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(tools)}")
        chosen.append(tools[name])
    return chosen
