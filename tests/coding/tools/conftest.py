"""Helpers for running the coding tools as the loop does: validate, then execute."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.content import TextContent
from tau_agent.tools import AgentTool, AgentToolResult
from tau_agent.validation import validate_arguments
from tau_coding.tools import ToolSettings, create_coding_tools
from tau_coding.tools.ripgrep import find_rg


@dataclass
class Call:
    result: AgentToolResult
    updates: list[AgentToolResult] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.result.content if isinstance(b, TextContent))

    @property
    def is_error(self) -> bool:
        return self.result.is_error


async def call(tool: AgentTool, token: CancellationToken | None = None, **args: Any) -> Call:
    """Run ``tool`` with ``args`` validated against its schema, collecting streamed updates."""
    checked = validate_arguments(tool.name, tool.parameters, args)
    updates: list[AgentToolResult] = []
    result = await tool.execute("call-1", checked, token or CancellationToken(), updates.append)
    return Call(result, updates)


@pytest.fixture
def tools(tmp_path: Path) -> dict[str, AgentTool]:
    return create_coding_tools(tmp_path)


@pytest.fixture(params=["ripgrep", "python"])
def search_tools(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, AgentTool]:
    """The tools once with the rg binary and once with the pure-Python walker."""
    if request.param == "ripgrep":
        if find_rg() is None:
            pytest.skip("no rg binary available")
        return create_coding_tools(tmp_path, settings=ToolSettings(use_ripgrep=True))
    return create_coding_tools(tmp_path, settings=ToolSettings(use_ripgrep=False))
