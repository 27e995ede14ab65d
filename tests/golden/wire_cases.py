"""Golden data for tau_agent's wire codec: every message kind, and the events of a tool run.

Regenerate with ``python -m tests.golden.regenerate wire``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.harness import AgentHarness
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    Cost,
    CustomMessage,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tau_agent.testing import FakeProvider, call, reply, text, thinking
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_agent.wire import message_to_dict
from tau_agent.wire_events import event_to_dict

HERE = Path(__file__).parent / "wire"
TS = 1_764_000_000_000


def all_message_kinds() -> list[AgentMessage]:
    return [
        UserMessage("Fix the failing test.", TS),
        UserMessage([TextContent("What is in this picture?"), ImageContent("aGVsbG8=", "image/png")], TS),
        AssistantMessage(
            content=[
                ThinkingContent("Look at the test first.", thinking_signature="sig=="),
                ThinkingContent("", thinking_signature="ENCRYPTED", redacted=True),
                TextContent("Reading it.", text_signature="ts"),
                ToolCall("toolu_01", "read", {"path": "test_x.py"}, thought_signature="gsig"),
            ],
            api="anthropic-messages",
            provider="anthropic",
            model="claude-sonnet-4-5",
            usage=Usage(100, 20, 5, 7, 3, 135, Cost(0.1, 0.2, 0.01, 0.02, 0.33)),
            stop_reason="toolUse",
            response_id="msg_1",
            timestamp=TS,
        ),
        AssistantMessage(
            stop_reason="error",
            error_message="429 rate limited",
            api="x",
            provider="y",
            model="z",
            timestamp=TS,
        ),
        ToolResultMessage("toolu_01", "read", [TextContent("def test_x(): ...")], {"lines": 1}, False, TS),
        ToolResultMessage("toolu_02", "bash", [TextContent("boom")], None, True, TS),
        BashExecutionMessage("ls", "a\nb\n", 0, timestamp=TS),
        BashExecutionMessage("env", "SECRET=1", 0, exclude_from_context=True, timestamp=TS),
        CustomMessage("note", "Remember the style guide.", True, {"k": 1}, TS),
        CompactionSummaryMessage("Goal: fix test.", 12_345, TS),
        BranchSummaryMessage("Tried approach A; failed.", "a1b2c3d4", TS),
    ]


async def _echo(
    tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
) -> AgentToolResult:
    on_update(AgentToolResult.text("half"))
    return AgentToolResult.text(f"echo {args['word']}", {"n": 1})


ECHO = AgentTool(
    "echo", "Echo a word.", {"type": "object", "properties": {"word": {"type": "string"}}}, _echo
)


def normalise(value: Any) -> Any:
    """Timestamps set to 0 so runs compare byte for byte."""
    if isinstance(value, dict):
        return {k: 0 if k == "timestamp" else normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


def tool_run_lines() -> list[str]:
    provider = FakeProvider(
        [
            reply(
                thinking("Plan.", signature="s1"),
                text("Calling echo.", chunk_size=7),
                call("echo", {"word": "hi"}, id="c1"),
            ),
            reply(text("Done: hi.")),
        ]
    )
    harness = AgentHarness(provider, tools=[ECHO])

    async def go() -> list[str]:
        return [
            json.dumps(normalise(event_to_dict(e)), sort_keys=True) async for e in harness.prompt("Say hi.")
        ]

    return asyncio.run(go())


def messages_json() -> str:
    return json.dumps([message_to_dict(m) for m in all_message_kinds()], indent=1, sort_keys=True) + "\n"


def regenerate() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    (HERE / "messages.json").write_text(messages_json())
    (HERE / "tool_run_events.jsonl").write_text("\n".join(tool_run_lines()) + "\n")
