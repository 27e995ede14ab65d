"""A fixed RPC conversation, played against the in-process server: the golden transcript.

Every line the server writes, in order, after the command that caused it (prefixed ``>>``).
Volatile values are normalised: timestamps become 0, the session id, file and paths become
placeholders; entry ids are deterministic (a counter). Regenerate with

    .venv/bin/python -m tests.golden.rpc.transcript

and read ``git diff tests/golden/rpc`` before committing: a diff is a protocol change.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import call, deltas, reply
from tau_ai.model import Model
from tau_coding.modes.rpc import make_server
from tau_coding.modes.rpc.output import RpcOutput
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.session.store.manager import SessionManager

GOLDEN = Path(__file__).with_name("transcript.jsonl")
MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1", name="Fake", reasoning=True)
OTHER = Model("other-model", "fake", "fake", "http://127.0.0.1", name="Other")

COMMANDS: list[bytes] = [
    b'{"id":"1","type":"get_state"}',
    b'{"id":"2","type":"prompt","message":"Say hi"}',
    b'{"id":"3","type":"get_messages"}',
    b'{"id":"4","type":"get_fork_messages"}',
    b'{"id":"5","type":"set_label","entryId":"e0003","label":"greeting"}',
    b'{"id":"6","type":"get_tree"}',
    b'{"id":"7","type":"get_session_stats"}',
    b'{"id":"8","type":"set_session_name","name":"golden"}',
    b'{"id":"9","type":"get_last_assistant_text"}',
    b'{"id":"10","type":"cycle_thinking_level"}',
    b'{"id":"11","type":"get_available_models"}',
    b'{"id":"12","type":"set_model","provider":"fake","modelId":"other-model"}',
    b'{"id":"13","type":"cycle_model"}',
    b'{"id":"14","type":"set_steering_mode","mode":"all"}',
    b"not json",
    b'{"id":"15","type":"no_such_command"}',
    b'{"id":"16","type":"prompt","message":5}',
    b'{"id":"17","type":"navigate_tree","entryId":"e0003"}',
    b'{"id":"18","type":"get_state"}',
]

VOLATILE = {"sessionId": "<session id>", "sessionFile": "<session file>", "path": "<path>", "cwd": "<cwd>"}


def normalise(value: Any) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "timestamp":
                out[key] = 0
            elif key in VOLATILE and isinstance(item, str):
                out[key] = VOLATILE[key]
            else:
                out[key] = normalise(item)
        return out
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


async def _play(root: Path) -> list[str]:
    counter = itertools.count(1)
    header = SessionHeader(id="golden", timestamp="2026-01-01T00:00:00.000Z", cwd=str(root))
    log = SessionLog(
        JsonlSessionStorage.create(root / "golden.jsonl", header),
        new_id=lambda: f"e{next(counter):04d}",
        clock=lambda: "2026-01-01T00:00:00.000Z",
    )
    provider = FakeProvider(
        [reply(call("echo", {"text": "hi"}, id="call_1")), reply(deltas(["Hi ", "there."]))]
    )
    session = CodingSession(
        log=log, model=MODEL, provider_factory=lambda m: provider, tools=[], system_prompt="", cwd=root
    )
    stream = io.BytesIO()
    server = make_server(
        SessionControl(session, SessionManager(root / "sessions", str(root)), models=lambda: [MODEL, OTHER]),
        RpcOutput(stream),
    )
    lines: list[str] = []
    seen = 0
    for command in COMMANDS:
        await server.handle_line(command)
        if server.is_streaming and server._run is not None:
            await server._run
        await asyncio.sleep(0)
        server.out.flush()
        data = stream.getvalue()
        lines.append(">> " + command.decode())
        for raw in data[seen:].splitlines():
            lines.append(json.dumps(normalise(json.loads(raw)), ensure_ascii=False, sort_keys=True))
        seen = len(data)
    await server.shutdown()
    return lines


def transcript() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        return "\n".join(asyncio.run(_play(Path(tmp)))) + "\n"


if __name__ == "__main__":
    GOLDEN.write_text(transcript())
    print(f"wrote {GOLDEN}")
