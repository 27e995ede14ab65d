"""Many MCP tools, offered through two: a search tool and a call tool.

When the MCP tools' definitions would take more than ``mcp.toolSearchShare`` of the model's
context window (estimated at four characters a token), listing them all on every request
would crowd out the conversation. The model is then given ``mcp_search_tools`` (keywords in,
matching tools with their full schemas out) and ``mcp_call_tool`` (a tool's name and its
arguments, validated against that tool's schema exactly as a listed tool's would be).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_agent.validation import ToolArgumentError, validate_arguments

SEARCH_TOOL = "mcp_search_tools"
CALL_TOOL = "mcp_call_tool"
DEFAULT_SHARE = 0.1
DEFAULT_LIMIT = 8
_WORD = re.compile(r"[a-z0-9]+")


def definition_tokens(tools: Sequence[AgentTool]) -> int:
    """About how many tokens the tools' definitions cost a request."""
    size = sum(len(json.dumps([t.name, t.description, t.parameters], ensure_ascii=False)) for t in tools)
    return size // 4


def needs_search(tools: Sequence[AgentTool], context_window: int, share: float) -> bool:
    return share > 0 and context_window > 0 and definition_tokens(tools) > share * context_window


def _hits(words: set[str], text: str) -> int:
    """Query words found in ``text``; a word also matches one it begins or that begins it ("issue", "issues")."""
    found = set(_WORD.findall(text.lower()))
    return sum(
        1
        for w in words
        if any(w == f or (min(len(w), len(f)) >= 3 and (f.startswith(w) or w.startswith(f))) for f in found)
    )


def rank(tools: Sequence[AgentTool], query: str, limit: int) -> list[AgentTool]:
    """The tools best matching ``query``'s words: in the name counts three times a description hit."""
    words = set(_WORD.findall(query.lower()))
    scored = []
    for tool in tools:
        score = 3 * _hits(words, tool.name) + _hits(words, tool.description)
        if score:
            scored.append((-score, tool.name, tool))
    return [tool for _, _, tool in sorted(scored)[:limit]]


def search_tools(current: Callable[[], Mapping[str, AgentTool]]) -> list[AgentTool]:
    """The two tools over whatever ``current()`` holds at call time."""

    async def search(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        tools = current()
        found = rank(
            list(tools.values()), str(args.get("query", "")), int(args.get("limit") or DEFAULT_LIMIT)
        )
        if not found:
            names = ", ".join(sorted(tools)[:50])
            return AgentToolResult.text(f"No MCP tool matches. Some of the {len(tools)} tools: {names}")
        listed = [{"name": t.name, "description": t.description, "inputSchema": t.parameters} for t in found]
        return AgentToolResult.text(json.dumps(listed, ensure_ascii=False, indent=1))

    async def call(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        name = str(args.get("name", ""))
        tool = current().get(name)
        if tool is None:
            return AgentToolResult.text(
                f"No MCP tool named {name!r}; {SEARCH_TOOL} finds tools.", is_error=True
            )
        try:
            arguments = validate_arguments(name, tool.parameters, args.get("arguments") or {})
        except ToolArgumentError as exc:
            return AgentToolResult.text(str(exc), is_error=True)
        return await tool.execute(tool_call_id, arguments, signal, on_update)

    return [
        AgentTool(
            SEARCH_TOOL,
            "Search the tools of the user's MCP servers by keywords; returns matching tools with their "
            f"input schemas. Call one with {CALL_TOOL}.",
            {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "keywords: what the tool should do"},
                    "limit": {
                        "type": "integer",
                        "description": f"at most this many (default {DEFAULT_LIMIT})",
                    },
                },
                "required": ["query"],
            },
            search,
            label="MCP search",
        ),
        AgentTool(
            CALL_TOOL,
            f"Call an MCP tool found with {SEARCH_TOOL}, by its exact name, with arguments matching its schema.",
            {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "the tool's name, mcp__server__tool"},
                    "arguments": {"type": "object", "description": "arguments for the tool"},
                },
                "required": ["name"],
            },
            call,
            label="MCP call",
        ),
    ]
