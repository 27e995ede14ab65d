"""Cancel at every event, over RPC: ``abort`` sent while the reply's text streams, while its
tool calls stream, and while its tools run, to the real ``tau --mode rpc`` talking HTTP to a
slow local model. Each time the transcript must be valid in memory (``get_messages``), in the
session file and in the next request, and the next prompt must be answered.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bench.bench_cli import tau_executable
from bench.session_rules import session_problems, transcript_problems
from bench.tau_project import MODEL, TauProject

from tau_ai.testing.replay_server import RecordedRequest, ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tau_coding.sdk.rpc_client import RpcClient

API = "openai-completions"
CALLS = [
    ScriptedCall("call_a", "read", {"path": "config.py"}),
    ScriptedCall("call_b", "bash", {"command": "sleep 0.5; echo ran"}),
    ScriptedCall("call_c", "read", {"path": "config.py"}),
]
FIRST = ScriptedReply(chunks=["Let me ", "look at ", "the file ", "twice."], calls=CALLS)

Event = dict[str, Any]


def delta_type(event: Event) -> str:
    return str(event.get("assistantMessageEvent", {}).get("type", ""))


MOMENTS: dict[str, Callable[[Event], bool]] = {
    "while text streams": lambda e: delta_type(e) == "text_delta",
    "while tool calls stream": lambda e: delta_type(e) == "toolcall_end",
    "while a tool runs": lambda e: e.get("type") == "tool_execution_start" and e.get("toolName") == "bash",
}


def request_problems(request: RecordedRequest) -> list[str]:
    """Tool-call pairing in an OpenAI chat request: each call answered exactly once."""
    messages: list[dict[str, Any]] = request.json()["messages"]
    wire = []
    for m in messages:
        if m["role"] == "assistant":
            calls = [{"type": "toolCall", "id": c["id"]} for c in m.get("tool_calls") or []]
            wire.append(
                {"role": "assistant", "content": calls or [{"type": "text"}], "stopReason": "toolUse"}
            )
        elif m["role"] == "tool":
            wire.append({"role": "toolResult", "toolCallId": m["tool_call_id"]})
        elif m["role"] == "user":
            wire.append({"role": "user"})
    return transcript_problems(wire)


@pytest.mark.parametrize("moment", MOMENTS)
async def test_an_abort_leaves_a_valid_transcript_and_the_next_prompt_works(
    moment: str, tmp_path: Path
) -> None:
    def respond(request: RecordedRequest, index: int) -> Scripted:
        if index == 0:  # slow enough for an abort to land anywhere in it
            return Scripted(body=sse_body(API, FIRST), chunk_size=40, delay=0.02)
        return Scripted(body=sse_body(API, ScriptedReply(text="Answered.")))

    async with ReplayServer(respond, keep_alive=True) as server:
        project = TauProject.create(tmp_path, API, server.url)
        client = await RpcClient.start(
            ["--model", MODEL, "--permission-mode", "yolo"],
            cwd=project.root,
            env=project.env(),
            command=tau_executable(),
        )
        try:
            await client.prompt("Read config.py twice")
            async for event in client.events(timeout=30):
                if MOMENTS[moment](event):
                    break
            await client.request("abort")
            await client.wait_for("agent_settled", 30)
            messages = (await client.request("get_messages"))["messages"]
            findings = [f"in memory: {p}" for p in transcript_problems(messages)]
            state = await client.request("get_state")
            findings += [f"on disk: {p}" for p in session_problems(Path(state["sessionFile"]))]
            events = await client.prompt_and_wait("Go on", timeout=30)
            answers = [
                e for e in events if e.get("type") == "message_end" and e["message"]["role"] == "assistant"
            ]
            if not answers or answers[-1]["message"].get("stopReason") != "stop":
                findings.append("the next prompt was not answered")
            findings += [f"next request: {p}" for p in request_problems(server.requests[-1])]
            findings += [f"on disk after: {p}" for p in session_problems(Path(state["sessionFile"]))]
        finally:
            await client.close()
    assert findings == [], json.dumps(findings)
