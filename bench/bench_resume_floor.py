"""The floor under a resume without a request checkpoint: what any Python reader and converter
of the same session must spend, measured in one process (best of ``REPEATS``).

``python -m bench.bench_resume_floor [ENTRIES]`` prints, for the bench's linear session of ENTRIES
entries (10,000 by default): reading the file; msgspec decoding its lines into Tau's typed
entries (C, no Python per line); one Python pass over the messages that builds one wire dict
each (the least a converter does); orjson encoding those dicts; and, for comparison, what
Tau's own reader, replay and request build take on the same session. The sum of the first four
is the floor issue 17's "resume 10k, extra wall" row is held against (docs/performance.md);
``bench/run.py`` reports the two sums (no target: a floor is not a goal).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import Any

import msgspec
import orjson

from bench.bench_sessions import make_session
from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    LlmMessage,
    ToolResultMessage,
    UserMessage,
    extend_llm_view,
)
from tau_agent.provider import Context, StreamOptions
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_ai.apis import wire_api
from tau_ai.body_encoding import encode_body_parts
from tau_ai.model import Model
from tau_ai.request_cache import RequestCache

REPEATS = 15


class Line(msgspec.Struct, rename="camel"):
    """A session line decoded into Tau's message types, and nothing checked or kept besides."""

    type: str
    id: str
    parent_id: str | None
    timestamp: str
    message: AgentMessage | None = None


LINES = msgspec.json.Decoder(Line)
MODEL = Model(id="m", name="m", api="openai-completions", provider="local", base_url="http://127.0.0.1:1/v1")


def best_ms(work: Callable[[], Any], repeats: int = REPEATS) -> float:
    """The best of ``repeats`` runs of ``work``, with the cyclic collector off: its passes
    depend on what else the process holds, and a ``tau`` run keeps them off this work too
    (the reader pauses the collector; a run freezes start-up's objects)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best * 1000


def least_wire(messages: list[Any]) -> list[dict[str, Any]]:
    """One dict per message with what the wire needs, and nothing checked."""
    out: list[dict[str, Any]] = []
    for m in messages:
        kind = type(m)
        if kind is UserMessage:
            out.append({"role": "user", "content": m.content})
        elif kind is AssistantMessage:
            text = [b.text for b in m.content if type(b) is TextContent]
            calls = [
                {"id": b.id, "type": "function", "function": {"name": b.name, "arguments": b.arguments}}
                for b in m.content
                if type(b) is ToolCall
            ]
            out.append({"role": "assistant", "content": "".join(text), "tool_calls": calls})
        elif kind is ToolResultMessage:
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content[0].text})
    return out


def measure(entries: int, repeats: int = REPEATS) -> tuple[dict[str, float], dict[str, float]]:
    """The floor's parts and Tau's, in ms, for the bench's linear session of ``entries``."""
    path = make_session(entries)
    data = path.read_bytes()
    lines = data[data.index(b"\n") + 1 :]  # the entries, without the header
    with JsonlSessionStorage.open(path, read_only=True) as storage:
        messages: list[LlmMessage] = []
        extend_llm_view(SessionLog(storage).state().messages, messages)
    wire = least_wire(messages)

    def tau_read() -> None:
        with JsonlSessionStorage.open(path, read_only=True) as storage:
            SessionLog(storage).state()

    def tau_build() -> None:
        cache = RequestCache(MODEL, wire_api(MODEL.api))
        body = cache.build(Context("You are Tau.", messages, []), StreamOptions(), "key").body
        encode_body_parts(body)

    floor = {
        "read the file": best_ms(path.read_bytes, repeats),
        "decode lines to typed entries (msgspec)": best_ms(lambda: LINES.decode_lines(lines), repeats),
        "one wire dict per message (Python)": best_ms(lambda: least_wire(messages), repeats),
        "encode the wire dicts (orjson)": best_ms(lambda: orjson.dumps(wire), repeats),
    }
    tau = {
        "Tau: open, read and replay": best_ms(tau_read, repeats),
        "Tau: build the request": best_ms(tau_build, repeats),
    }
    return floor, tau


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    entries = 500 if smoke else 10_000
    repeats = 2 if smoke else REPEATS
    measured: list[tuple[dict[str, float], dict[str, float]]] = []

    def part(which: int) -> float:
        if not measured:
            measured.append(measure(entries, repeats))
        return sum(measured[0][which].values())

    return [
        (f"sessions: resume floor, {entries} entries (in one process)", lambda: part(0), "ms", None),
        (f"sessions: Tau's read and build, {entries} entries (in one process)", lambda: part(1), "ms", None),
    ]


def main(argv: list[str]) -> int:
    floor, tau = measure(int(argv[0]) if argv else 10_000)
    for name, ms in floor.items():
        print(f"{name:45} {ms:7.1f} ms")
    print(f"{'floor (sum)':45} {sum(floor.values()):7.1f} ms")
    for name, ms in tau.items():
        print(f"{name:45} {ms:7.1f} ms")
    print(f"{'Tau (sum)':45} {sum(tau.values()):7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
