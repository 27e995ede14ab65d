"""Ranking and the size rule behind mcp_search_tools."""

from __future__ import annotations

from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.mcp.search import definition_tokens, needs_search, rank


async def _never(
    tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
) -> AgentToolResult:
    raise AssertionError("not called")


def _tool(name: str, description: str) -> AgentTool:
    return AgentTool(name, description, {"type": "object", "properties": {}}, _never)


TOOLS = [
    _tool("mcp__gh__create_issue", "Create an issue in a GitHub repository"),
    _tool("mcp__gh__list_issues", "List issues of a repository"),
    _tool("mcp__db__query", "Run a read-only SQL query"),
]


def test_rank_prefers_name_hits_and_drops_non_matches() -> None:
    assert [t.name for t in rank(TOOLS, "create issue", 5)] == [
        "mcp__gh__create_issue",
        "mcp__gh__list_issues",
    ]
    assert [t.name for t in rank(TOOLS, "SQL", 5)] == ["mcp__db__query"]
    assert rank(TOOLS, "weather", 5) == []
    assert len(rank(TOOLS, "issue", 1)) == 1


def test_search_is_needed_only_above_the_share_of_the_window() -> None:
    tokens = definition_tokens(TOOLS)
    assert tokens > 0
    assert needs_search(TOOLS, context_window=tokens * 5, share=0.1)
    assert not needs_search(TOOLS, context_window=tokens * 20, share=0.1)
    assert not needs_search(TOOLS, context_window=tokens, share=0)  # 0 turns search off
