"""RPC mode: what the protocol adds per streamed event, and a command's round trip.

* output per event: a 10k-delta reply's ``message_update`` events converted to Pi's JSON,
  encoded and written (to /dev/null) by RpcOutput, in the event loop as the server does it.
  Target 20 us/event, i.e. at least 50,000 events/s.
* whole run per event: the same 10k deltas from a FakeProvider through CodingSession (loop,
  persistence) and the RPC server, in-process. Reported, not targeted: most of it is the loop.
* get_state round trip: median over a real ``tau --mode rpc`` process's pipes. Target 1 ms.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tau_agent.events import MessageUpdateEvent
from tau_agent.messages import AssistantMessage
from tau_agent.stream_events import TextDeltaEvent
from tau_agent.testing import FakeProvider, deltas, reply
from tau_ai.model import Model
from tau_coding.modes.rpc import make_server
from tau_coding.modes.rpc.output import RpcOutput
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.session.events import session_event_to_dict
from tau_coding.session.store.manager import SessionManager


def output_us_per_event(n: int) -> float:
    partial = AssistantMessage()
    events = [MessageUpdateEvent(partial, TextDeltaEvent(0, f"tok{i} ", partial)) for i in range(n)]

    async def run(sink: Any) -> float:
        out = RpcOutput(sink)
        send, to_dict = out.send, session_event_to_dict
        start = time.perf_counter()
        for index, event in enumerate(events):
            send(to_dict(event))
            if index % 64 == 0:
                await asyncio.sleep(0)  # a provider yields to the loop between network reads
        out.flush()
        return time.perf_counter() - start

    with open(os.devnull, "wb") as sink:
        best = min(asyncio.run(run(sink)) for _ in range(3))
    return best / n * 1e6


def run_us_per_event(n: int) -> float:
    model = Model("fake-model", "fake", "fake", "http://127.0.0.1")
    pieces = [f"tok{i} " for i in range(n)]

    async def run(tmp: Path, sink: Any) -> float:
        manager = SessionManager(tmp / "sessions", str(tmp))
        provider = FakeProvider([reply(deltas(pieces))])
        session = CodingSession(
            log=manager.new(),
            model=model,
            provider_factory=lambda m: provider,
            tools=[],
            system_prompt="",
            cwd=tmp,
        )
        server = make_server(SessionControl(session, manager), RpcOutput(sink))
        start = time.perf_counter()
        await server.dispatch({"type": "prompt", "message": "go"})
        assert server._run is not None
        await server._run
        elapsed = time.perf_counter() - start
        await server.shutdown()
        return elapsed

    with tempfile.TemporaryDirectory() as tmp, open(os.devnull, "wb") as sink:
        elapsed = asyncio.run(run(Path(tmp), sink))
    return elapsed / n * 1e6


def get_state_roundtrip_ms(runs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / ".tau").mkdir()
        provider = {
            "baseUrl": "http://127.0.0.1:9",
            "api": "openai-completions",
            "apiKey": "x",
            "models": [{"id": "m"}],
        }
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        env = {**os.environ, "HOME": str(home), "TAU_HOME": str(home / ".tau")}
        process = subprocess.Popen(
            [sys.executable, "-m", "tau_coding", "--mode", "rpc", "--no-session", "--model", "local/m"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=tmp,
        )
        assert process.stdin is not None and process.stdout is not None
        times = []
        try:
            for i in range(runs + 5):
                start = time.perf_counter()
                process.stdin.write(b'{"id":"%d","type":"get_state"}\n' % i)
                process.stdin.flush()
                answer = json.loads(process.stdout.readline())
                elapsed = (time.perf_counter() - start) * 1000
                assert answer["success"], answer
                if i >= 5:  # the first few warm up imports and caches
                    times.append(elapsed)
        finally:
            process.stdin.close()
            process.wait(timeout=30)
            process.stdout.close()
    return statistics.median(times)


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    n = 1_000 if smoke else 10_000
    return [
        ("rpc: output per event (10k deltas)", lambda: output_us_per_event(n), "us/event", 20.0),
        ("rpc: whole run per event (10k deltas)", lambda: run_us_per_event(n), "us/event", None),
        ("rpc: get_state round trip", lambda: get_state_roundtrip_ms(20 if smoke else 200), "ms", 1.0),
    ]
