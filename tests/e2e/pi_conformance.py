"""One RPC conversation, as a script, and how to compare two agents' transcripts of it.

``SCRIPT`` is what a client sends, each command with the event to wait for before the next one;
``drive`` runs it against any ``--mode rpc`` process and returns every line the process wrote.
``shape`` reduces a transcript to what must match between Pi and Tau: the kinds of responses and
events in order and the fields each carries; values that are times, ids, paths or token counts
aside. The recording of Pi 0.73.1 is tests/data/pi/rpc-0.73.1.jsonl; to record it again, with Pi
installed from npm: ``python -m tests.e2e.pi_conformance PATH/TO/pi-coding-agent/dist/cli.js``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply

# (command, the event or response type to wait for before sending the next command)
SCRIPT: list[tuple[dict[str, Any], str]] = [
    ({"id": "1", "type": "get_state"}, "response"),
    ({"id": "2", "type": "prompt", "message": "What is the secret word?"}, "agent_end"),
    ({"id": "3", "type": "get_session_stats"}, "response"),
    ({"id": "4", "type": "get_fork_messages"}, "response"),
    ({"id": "5", "type": "get_last_assistant_text"}, "response"),
    ({"id": "6", "type": "bash", "command": "echo hello"}, "response"),
    ({"id": "7", "type": "get_commands"}, "response"),
    ({"id": "8", "type": "set_session_name", "name": "conformance"}, "response"),
    ({"id": "9", "type": "compact"}, "response"),
    ({"id": "10", "type": "get_messages"}, "response"),
]

NOTES = "The secret word is PAPAYA.\n"
# What the scripted model answers, in order: read notes.txt, the answer, the compaction summary.
REPLIES = [
    ScriptedReply(text="Let me look.", calls=[ScriptedCall("call_1", "read", {"path": "notes.txt"})]),
    ScriptedReply(chunks=("The secret word ", "is PAPAYA.")),
    ScriptedReply(text="## Goal\nFind the secret word."),
]
RECORDING = Path(__file__).resolve().parents[1] / "data" / "pi" / "rpc-0.73.1.jsonl"


async def drive(process: asyncio.subprocess.Process, timeout: float = 60) -> list[dict[str, Any]]:
    """Send ``SCRIPT`` to ``process`` (stdin/stdout pipes), waiting as it says; every output line."""
    assert process.stdin is not None and process.stdout is not None
    lines: list[dict[str, Any]] = []

    async def until(kind: str, command_id: str) -> None:
        assert process.stdout is not None
        while True:
            raw = await asyncio.wait_for(process.stdout.readline(), timeout)
            if not raw:
                raise EOFError(f"the process ended before {kind}")
            line = json.loads(raw)
            lines.append(line)
            if line.get("type") == kind and (kind != "response" or line.get("id") == command_id):
                return

    for command, wait in SCRIPT:
        process.stdin.write(json.dumps(command).encode() + b"\n")
        await process.stdin.drain()
        await until(wait, str(command["id"]))
    process.stdin.close()
    return lines


Row = tuple[str, str, tuple[str, ...], tuple[str, ...]]


def shape(lines: Sequence[dict[str, Any]]) -> list[Row]:
    """(type, detail, keys, inner keys) per line; a run of ``message_update`` lines is one row.

    ``detail`` is the command of a response or the role of a message event. A run of streaming
    updates counts once, its detail the sorted kinds it held: how many deltas a reply arrives in
    depends on the server's chunking, and the order of a block's end among other blocks' deltas
    on the wire API's parser, neither on the agent. ``inner keys`` are those of a response's
    ``data`` or an event's ``message``.
    """
    out: list[Row] = []
    kinds: set[str] = set()
    for line in lines:
        kind = str(line.get("type"))
        if kind == "message_update":
            kinds.add(str(line["assistantMessageEvent"]["type"]))
            if out and out[-1][0] == "message_update":
                out[-1] = (kind, " ".join(sorted(kinds)), out[-1][2], out[-1][3])
                continue
            kinds = {str(line["assistantMessageEvent"]["type"])}
            out.append((kind, " ".join(sorted(kinds)), tuple(sorted(line)), ()))
            continue
        if kind == "response":
            detail = str(line.get("command"))
        elif isinstance(line.get("message"), dict):
            detail = str(line["message"].get("role"))
        else:
            detail = ""
        inner = line.get("data") if kind == "response" else line.get("message")
        out.append(
            (kind, detail, tuple(sorted(line)), tuple(sorted(inner)) if isinstance(inner, dict) else ())
        )
    return out


async def _record(pi_cli: str) -> None:
    from tau_ai.testing.replay_server import ReplayServer, Scripted
    from tau_ai.testing.scripted_streams import sse_body

    replies = [Scripted(body=sse_body("openai-completions", r)) for r in REPLIES]
    with tempfile.TemporaryDirectory() as temp:
        agent, project = Path(temp) / "agent", Path(temp) / "project"
        agent.mkdir()
        project.mkdir()
        (project / "notes.txt").write_text(NOTES)
        async with ReplayServer(replies) as server:
            model = {"id": "scripted-model", "reasoning": False, "input": ["text"],
                     "contextWindow": 200000, "maxTokens": 8192}  # fmt: skip
            provider = {"baseUrl": server.url, "api": "openai-completions", "apiKey": "k", "models": [model]}
            (agent / "models.json").write_text(json.dumps({"providers": {"scripted": provider}}))
            process = await asyncio.create_subprocess_exec(
                "node", pi_cli, "--mode", "rpc", "--provider", "scripted", "--model", "scripted-model",
                cwd=project, env=os.environ | {"PI_CODING_AGENT_DIR": str(agent)},
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            lines = await drive(process)
            await process.wait()
    RECORDING.write_text("".join(json.dumps(line) + "\n" for line in lines))
    print(f"wrote {RECORDING} ({len(lines)} lines)")


if __name__ == "__main__":
    asyncio.run(_record(sys.argv[1]))
