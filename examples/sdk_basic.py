"""Drive a Tau coding session in-process: a custom tool, events, a follow-up, stats, a fork.

Run: python examples/sdk_basic.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from local_model import MODEL, local_model

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.sdk import create_session


async def word_count(
    call_id: str, args: dict[str, Any], signal: CancellationToken, update: ToolUpdate
) -> AgentToolResult:
    return AgentToolResult.text(str(len(str(args["text"]).split())))


WORD_COUNT = AgentTool(
    name="word_count",
    description="Count the words of a text.",
    parameters={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    execute=word_count,
)

REPLIES = [
    ScriptedReply(calls=[ScriptedCall("call_1", "word_count", {"text": "the quick brown fox"})]),
    ScriptedReply(chunks=("That text has ", "4 words.")),
    ScriptedReply(text="You are welcome."),
]


async def main() -> None:
    async with local_model(REPLIES) as (project, environ):
        with create_session(project, model=MODEL, custom_tools=[WORD_COUNT], environ=environ) as tau:
            tau.subscribe(
                lambda event: print(f"  event: {event.type}") if event.type.startswith("tool") else None
            )
            reply = await tau.prompt("How many words in 'the quick brown fox'?")
            print("answer:", reply.text if reply else None)
            await tau.prompt("Thanks!")
            print("last:", tau.last_assistant_text())
            stats = tau.stats()
            print("messages:", stats["totalMessages"], "tool calls:", stats["toolCalls"])
            first = tau.fork_messages()[1]
            print("forked, editor text:", await tau.fork(first.entry_id))
            print("messages after fork:", len(tau.messages))


if __name__ == "__main__":
    asyncio.run(main())
