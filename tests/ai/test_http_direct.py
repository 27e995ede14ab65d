"""Tau's own HTTP client (DirectSender) over real loopback HTTP: what httpx's client did above
its transport is done here too, and HttpProvider uses it unless a proxy calls for httpx."""

from __future__ import annotations

import asyncio
import gzip
import re
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path

import pytest

from tau_ai import http_errors as errors
from tau_ai.body_encoding import BodyParts
from tau_ai.http1_connection import Timeouts
from tau_ai.http_client import HttpxSender, make_client
from tau_ai.http_direct import DirectSender, ResponseHeaders, direct_possible, proxies_configured
from tau_ai.http_sender import Sender
from tau_ai.http_transport import StreamingTransport
from tau_ai.stored_text import StoredText, open_file
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import toy_text_stream

TIMEOUTS = Timeouts(connect=2, read=2, write=2, pool=2)


async def fetch(
    sender: DirectSender, url: str, headers: dict[str, str] | None = None, body: bytes = b"{}"
) -> tuple[int, bytes]:
    response = await sender.send("POST", url, headers or {"content-length": str(len(body))}, body, TIMEOUTS)
    try:
        return response.status_code, b"".join([piece async for piece in response.aiter_bytes()])
    finally:
        await response.aclose()


async def test_requests_carry_host_and_httpx_default_headers_and_keep_their_connection() -> None:
    body = toy_text_stream(["hi"])
    async with ReplayServer(Scripted(body=body, chunk_size=5), keep_alive=True) as server:
        sender = DirectSender()
        for _ in range(3):
            assert await fetch(sender, server.url + "/v1/x?alt=sse&q=a b", {"X-Key": "k"}) == (200, body)
        await sender.aclose()
        host = server.url.split("://")[1]
    assert server.connections == 1
    sent = server.requests[0]
    assert sent.path == "/v1/x?alt=sse&q=a%20b"
    assert sent.headers["host"] == host
    assert sent.headers["x-key"] == "k" and sent.headers["accept-encoding"] == "gzip, deflate"
    assert sent.body == b"{}"


@pytest.mark.parametrize(
    ("encoding", "encode"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: zlib.compress(data, wbits=-zlib.MAX_WBITS)),
    ],
)
async def test_compressed_bodies_arrive_decoded(encoding: str, encode: object) -> None:
    plain = toy_text_stream(["compressed ", "text"] * 50)
    assert callable(encode)
    script = Scripted(
        body=encode(plain),
        headers={"content-type": "text/event-stream", "content-encoding": encoding},
        chunk_size=9,
    )
    async with ReplayServer(script) as server:
        sender = DirectSender()
        assert await fetch(sender, server.url) == (200, plain)
        await sender.aclose()


async def test_a_corrupt_compressed_body_is_a_decoding_error() -> None:
    script = Scripted(body=b"not gzip at all", headers={"content-encoding": "gzip"})
    async with ReplayServer(script) as server:
        sender = DirectSender()
        with pytest.raises(errors.DecodingError):
            await fetch(sender, server.url)
        await sender.aclose()


async def test_a_cut_body_and_a_closed_port_fail_as_transport_errors() -> None:
    body = toy_text_stream(["a"] * 40)
    async with ReplayServer(Scripted(body=body, cut_after=len(body) // 2)) as server:
        sender = DirectSender()
        with pytest.raises(errors.RemoteProtocolError, match="incomplete chunked read"):
            await fetch(sender, server.url)
        url = server.url
    with pytest.raises(errors.ConnectError):
        await fetch(sender, url)
    await sender.aclose()


async def test_a_big_body_is_sent_without_a_second_whole_copy_of_it() -> None:
    """A resumed long session's request is tens of MB: the client must not hold it twice
    (asyncio's transport copies what the socket does not take at once)."""
    received = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal received
        head = await reader.readuntil(b"\r\n\r\n")
        found = re.search(rb"content-length: (\d+)", head, re.IGNORECASE)
        assert found is not None
        while received < int(found[1]):
            received += len(await reader.read(65536))
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    body = b"x" * (32 << 20)
    sender = DirectSender()
    tracemalloc.start()
    try:
        answer = await fetch(sender, f"http://127.0.0.1:{port}/", body=body)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        await sender.aclose()
        server.close()
        await server.wait_closed()
    assert answer == (200, b"ok") and received == len(body)
    assert peak < 4 << 20, f"{peak / 2**20:.1f} MiB allocated while sending a 32 MiB body"


@pytest.mark.parametrize("through", ["direct", "httpx", "httpx-own-transport"])
async def test_a_body_in_parts_arrives_whole_through_every_sender(through: str, tmp_path: Path) -> None:
    stored = tmp_path / "stored"
    stored.write_bytes(b"[" + b"8" * 1_500_000 + b"]")
    with stored.open("rb") as source:
        in_file = StoredText(open_file(source.fileno()), 1, 1_500_000)
    parts = BodyParts([b'{"messages":[', b"7" * 700_000, b",", in_file, b",1],", b'"x":1}'])
    async with ReplayServer(Scripted(body=toy_text_stream(["hi"])), keep_alive=True) as server:
        sender: Sender = DirectSender()
        if through != "direct":
            transport = StreamingTransport() if through == "httpx-own-transport" else None
            sender = HttpxSender(make_client(server.url, transport, connect_timeout=2, idle_timeout=2))
        for _ in range(2):  # the second on the kept connection
            response = await sender.send(
                "POST", server.url, {"content-length": str(len(parts))}, parts, TIMEOUTS
            )
            await response.aclose()
        await sender.aclose()
    assert [r.body for r in server.requests] == [parts.joined()] * 2


def test_response_headers_are_read_without_case_and_repeats_are_joined() -> None:
    headers = ResponseHeaders([(b"Retry-After", b"3"), (b"X-A", b"1"), (b"x-a", b"2")])
    assert headers["retry-after"] == headers.get("RETRY-AFTER") == "3"
    assert headers["X-A"] == "1, 2" and "x-a" in headers and len(headers) == 2


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="reads the system's proxy settings there")
def test_a_proxy_variable_in_any_case_sends_requests_through_httpx() -> None:
    assert not proxies_configured({"NO_PROXY": "localhost", "PATH": "/bin"})
    assert proxies_configured({"https_proxy": "http://proxy:3128"})
    assert proxies_configured({"ALL_PROXY": "socks5://p:1"})
    assert not proxies_configured({"HTTP_PROXY": ""})
    assert direct_possible("https://api.example.com/v1", {})
    assert not direct_possible("https://api.example.com/v1", {"TAU_HTTP_TRANSPORT": "httpx"})
    assert not direct_possible("https://user:pw@api.example.com/v1", {})
    assert not direct_possible("https://api.example.com/v1", {"HTTPS_PROXY": "http://p:1"})


def test_a_streamed_reply_imports_no_httpx() -> None:
    probe = """
import asyncio, sys
from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.http_provider import HttpProvider
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream

async def main():
    async with ReplayServer(Scripted(body=toy_text_stream(["no ", "httpx"]))) as server:
        p = HttpProvider(toy_model(server.url), TOY_WIRE, api_key="k")
        events = [e async for e in p.stream(Context("", [UserMessage("hi")]), StreamOptions())]
        await p.aclose()
    print(events[-1].message.text, "httpx" in sys.modules)

asyncio.run(main())
"""
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, env=env)
    assert out.stdout.split() == ["no", "httpx", "False"], out.stderr
