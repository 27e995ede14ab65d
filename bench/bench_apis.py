"""Wire bytes -> AssistantMessageEvents: cost per streamed text delta, for each wire API.

A stream of n text deltas is synthesised in the API's own format (chunks shaped like the
recorded ones), cut into 16 KiB reads as a socket would deliver them, and fed through the
shared SseDecoder (Bedrock: its event stream decoder) and the API's parser. The number is the best-of-3 time per delta; flat
from 100 to 100k deltas means per-delta work does not grow with the reply.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tau_agent.stream_events import DoneEvent
from tau_ai.apis import MODULES, wire_api
from tau_ai.model import Model
from tau_ai.sse import SseDecoder
from tau_ai.wire_api import StreamDecoder

READ_SIZE = 16 * 1024
DELTA = "tok "


def _data(value: object, event: str | None = None, sep: str = "\n\n") -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(value, separators=(',', ':'))}{sep}"


def _chat(n: int) -> str:
    def chunk(delta: dict[str, object], finish: str | None = None) -> str:
        return _data(
            {
                "id": "chatcmpl-AU9UIKiI6NBXdUCLudJFiEJqK9Hld",
                "object": "chat.completion.chunk",
                "created": 1731749674,
                "model": "gpt-4o-2024-08-06",
                "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
            }
        )

    body = [chunk({"role": "assistant", "content": ""})]
    body += [chunk({"content": DELTA})] * n
    body.append(chunk({}, "stop"))
    body.append("data: [DONE]\n\n")
    return "".join(body)


def _responses(n: int) -> str:
    item = {"id": "msg_1", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
    body = [
        _data(
            {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
            "response.created",
        ),
        _data(
            {"type": "response.output_item.added", "item": item, "output_index": 0},
            "response.output_item.added",
        ),
    ]
    delta = {
        "type": "response.output_text.delta",
        "content_index": 0,
        "delta": DELTA,
        "item_id": "msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead",
        "logprobs": [],
        "obfuscation": "mZhSFjZXJr0X",
        "output_index": 0,
        "sequence_number": 4,
    }
    body += [_data(delta, "response.output_text.delta")] * n
    body.append(_data({"type": "response.output_item.done", "item": item}, "response.output_item.done"))
    usage = {"input_tokens": 11, "output_tokens": n, "total_tokens": n + 11}
    body.append(
        _data(
            {"type": "response.completed", "response": {"status": "completed", "usage": usage}},
            "response.completed",
        )
    )
    return "".join(body)


def _anthropic(n: int) -> str:
    start = {
        "type": "message_start",
        "message": {"id": "msg_1", "usage": {"input_tokens": 17, "output_tokens": 1}},
    }
    body = [
        _data(start, "message_start"),
        _data(
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            "content_block_start",
        ),
    ]
    delta = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": DELTA}}
    body += [_data(delta, "content_block_delta")] * n
    body.append(_data({"type": "content_block_stop", "index": 0}, "content_block_stop"))
    body.append(
        _data(
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": n}},
            "message_delta",
        )
    )
    body.append(_data({"type": "message_stop"}, "message_stop"))
    return "".join(body)


def _google(n: int, *, wrapped: bool = False) -> str:
    """Gemini's stream; ``wrapped``: each chunk inside ``{"response": ...}``, as Cloud Code Assist
    (the Gemini CLI login) sends it."""

    def chunk(finish: str | None) -> str:
        candidate: dict[str, object] = {"content": {"parts": [{"text": DELTA}], "role": "model"}, "index": 0}
        if finish:
            candidate["finishReason"] = finish
        value = {
            "candidates": [candidate],
            "usageMetadata": {"promptTokenCount": 15, "totalTokenCount": 15},
            "modelVersion": "gemini-2.5-flash",
            "responseId": "w1peaMz6INOvnvgPgYfPiQY",
        }
        return _data({"response": value} if wrapped else value, sep="\r\n\r\n")

    return chunk(None) * (n - 1) + chunk("STOP")


def _bedrock(n: int) -> bytes:
    """Bedrock's ConverseStream: binary event stream messages, as AWS frames them."""
    from tau_ai.eventstream import encode_event

    def event(kind: str, value: object) -> bytes:
        return encode_event(kind, json.dumps(value, separators=(",", ":")).encode())

    delta = event(
        "contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": DELTA}, "p": "abcdefghijkl"}
    )
    usage = {"inputTokens": 11, "outputTokens": n, "totalTokens": n + 11}
    return (
        event("messageStart", {"role": "assistant"})
        + delta * n
        + event("contentBlockStop", {"contentBlockIndex": 0})
        + event("messageStop", {"stopReason": "end_turn"})
        + event("metadata", {"usage": usage, "metrics": {"latencyMs": 100}})
    )


SYNTHESISERS: dict[str, Callable[[int], str | bytes]] = {
    "openai-completions": _chat,
    "openai-responses": _responses,
    "anthropic-messages": _anthropic,
    "google-generative-ai": _google,
    "mistral-conversations": _chat,
    # Subscription logins: the Codex backend speaks Responses, Gemini CLI wraps Gemini's chunks.
    "openai-codex-responses": _responses,
    "google-gemini-cli": lambda n: _google(n, wrapped=True),
    # The cloud platforms stream their base API's events.
    "azure-openai-responses": _responses,
    "google-vertex": _google,
    "anthropic-vertex": _anthropic,
    "bedrock-converse-stream": _bedrock,
}


def _parse(api: str, reads: list[bytes]) -> DoneEvent:
    wire = wire_api(api)
    parser = wire.new_parser(Model("bench", api, "bench", "http://127.0.0.1"))
    decoder: StreamDecoder = wire.new_decoder() if wire.new_decoder is not None else SseDecoder()
    last = None
    for read in reads:
        for event in decoder.feed(read):
            for out in parser.feed(event):
                last = out
    for out in parser.finish():
        last = out
    assert isinstance(last, DoneEvent), f"{api}: stream did not end with done"
    return last


def delta_cost(api: str, n: int, repeats: int = 3) -> float:
    """Microseconds per text delta to decode and parse a synthesised n-delta stream."""
    raw = SYNTHESISERS[api](n)
    body = raw if isinstance(raw, bytes) else raw.encode()
    reads = [body[i : i + READ_SIZE] for i in range(0, len(body), READ_SIZE)]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        done = _parse(api, reads)
        best = min(best, time.perf_counter() - start)
    assert done.message.text == DELTA * n, f"{api}: text lost or duplicated"
    return best / n * 1e6


APIS = tuple(MODULES)


# The core vocabulary (asyncio included) is loaded by any Tau process before a provider is;
# the number is what choosing an API then adds: importing its package and building a request.
_COLD = """
import time
from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.model import Model
import tau_ai.wire_api
start = time.perf_counter()
from tau_ai.apis import wire_api
api = wire_api({api!r})
api.build_request(Model("m", {api!r}, "p", "http://127.0.0.1"), Context("s", [UserMessage("hi")]), StreamOptions(), "k")
print(time.perf_counter() - start)
"""


def cold_import_and_build_ms(api: str, repeats: int = 3) -> float:
    """Milliseconds a fresh interpreter spends importing one API's package and building a request."""
    import subprocess
    import sys

    best = float("inf")
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, "-c", _COLD.format(api=api)], capture_output=True, text=True, check=True
        )
        best = min(best, float(done.stdout.strip()) * 1000)
    return best


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    sizes = (100, 1_000) if smoke else (100, 10_000, 100_000)
    out: list[tuple[str, Any, str, float | None]] = []
    for api in APIS:
        for n in sizes:
            out.append((f"apis: {api}, {n} deltas", lambda api=api, n=n: delta_cost(api, n), "us/delta", 5.0))
        out.append(
            (f"apis: {api}, cold import + build", lambda api=api: cold_import_and_build_ms(api), "ms", 50.0)
        )
    return out
