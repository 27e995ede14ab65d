"""Provider I/O overhead: SSE decode + HttpProvider per text delta over a real local stream,
and what importing the HTTP provider and building a request adds to a cold start.

The stream cases use the toy wire API (one JSON object per SSE event) so they measure the
shared half (HTTP read, SSE decoding, event hand-off), not any one API's parser. The server
sends the body in 4 KiB pieces, as a socket read of a fast stream would deliver it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.http_provider import HttpProvider
from tau_ai.retry import NO_RETRY
from tau_ai.sse import SseDecoder
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream

ROOT = Path(__file__).resolve().parent.parent
CONTEXT = Context("", [UserMessage("go")])


async def _stream_once(url: str, client: httpx.AsyncClient) -> int:
    provider = HttpProvider(toy_model(url), TOY_WIRE, api_key="k", retry=NO_RETRY, client=client)
    count = 0
    async for _ in provider.stream(CONTEXT, StreamOptions()):
        count += 1
    return count


async def _best_times(bodies: list[bytes], repeats: int, chunk_size: int) -> list[float]:
    """Best CPU time of a whole stream for each body, the bodies' runs interleaved so that
    a slow patch of the machine hits all of them alike."""
    best = [float("inf")] * len(bodies)
    async with contextlib.AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(trust_env=False))
        servers = [
            await stack.enter_async_context(ReplayServer(Scripted(body=body, chunk_size=chunk_size)))
            for body in bodies
        ]
        for server in servers:
            await _stream_once(server.url, client)  # warm-up: first connection, first parse
        for _ in range(repeats):
            for i, server in enumerate(servers):
                start = time.process_time()
                await _stream_once(server.url, client)
                best[i] = min(best[i], time.process_time() - start)
    return best


def stream_delta_cost(n: int, repeats: int | None = None, chunk_size: int = 4096) -> float:
    """Microseconds per text delta of a full HttpProvider stream (fixed request cost removed).

    CPU time of this process (client and server share it), not wall time, so other work on a
    shared machine does not count; short streams are repeated more (best of ``repeats``) so
    the subtraction of the fixed cost is not lost in noise. The server's own work per delta
    is included, so the figure overstates the provider's share slightly.
    """
    pieces = ["tok "] * n
    repeats = repeats or max(3, min(200, 50_000 // n))
    bodies = [toy_text_stream(pieces[:1]), toy_text_stream(pieces)]
    base, full = asyncio.run(_best_times(bodies, repeats, chunk_size))
    return max(full - base, 0.0) / max(n - 1, 1) * 1e6


def sse_decode_cost(n: int, repeats: int = 3, chunk_size: int = 4096) -> float:
    """Microseconds per event of SseDecoder alone on a body fed in ``chunk_size`` pieces."""
    body = toy_text_stream(["tok "] * n)
    chunks = [body[i : i + chunk_size] for i in range(0, len(body), chunk_size)]
    best = float("inf")
    for _ in range(repeats):
        decoder = SseDecoder()
        start = time.process_time()
        for chunk in chunks:
            decoder.feed(chunk)
        decoder.flush()
        best = min(best, time.process_time() - start)
    return best / n * 1e6


_COLD = """
import json, time
t0 = time.process_time()
from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
t1 = time.process_time()
from tau_ai.http_provider import HttpProvider
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model
model = toy_model("http://127.0.0.1:9")
provider = HttpProvider(model, TOY_WIRE, api_key="k")
spec = TOY_WIRE.build_request(model, Context("sys", [UserMessage("hi")]), StreamOptions(), "k")
body = json.dumps(spec.body).encode()
t2 = time.process_time()
import httpx
t3 = time.process_time()
print(json.dumps({"provider_ms": (t2 - t1) * 1000, "httpx_ms": (t3 - t2) * 1000}))
"""


def _cold(repeats: int) -> dict[str, float]:
    best: dict[str, float] = {}
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, "-c", _COLD], capture_output=True, text=True, check=True, cwd=ROOT
        )
        for key, value in json.loads(out.stdout).items():
            best[key] = min(best.get(key, float("inf")), value)
    return best


def cold_request_ms(repeats: int = 3) -> float:
    """CPU milliseconds a fresh interpreter spends importing tau_ai.http_provider and building
    a request (tau_agent's vocabulary already imported: the app has it anyway)."""
    return _cold(repeats)["provider_ms"]


def httpx_import_ms(repeats: int = 3) -> float:
    """Milliseconds of ``import httpx``, paid lazily when the first request is sent."""
    return _cold(repeats)["httpx_ms"]


def cases(smoke: bool) -> list[tuple[str, Any, str, float | None]]:
    sizes = (100, 1_000) if smoke else (100, 10_000, 100_000)
    repeats = 1 if smoke else 3
    out: list[tuple[str, Any, str, float | None]] = [
        (f"providers: HttpProvider stream, {n} deltas", lambda n=n: stream_delta_cost(n), "us/delta", 5.0)
        for n in sizes
    ]
    out.append(
        (f"providers: SSE decode, {sizes[-1]} events", lambda: sse_decode_cost(sizes[-1]), "us/event", None)
    )
    out.append(("providers: import + build request, cold", lambda: cold_request_ms(repeats), "ms", 50.0))
    out.append(("providers: import httpx", lambda: httpx_import_ms(repeats), "ms", None))
    return out
