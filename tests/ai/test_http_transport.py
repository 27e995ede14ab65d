"""StreamingTransport over real loopback HTTP: bodies per read, keep-alive, errors as httpx's."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from tau_ai.http_transport import StreamingTransport
from tau_ai.testing.replay_server import ReplayServer, Scripted

EVENTS = [b'data: {"n":%d}\n\n' % i for i in range(500)]
BODY = b"".join(EVENTS)


def offsets(parts: list[bytes]) -> list[int]:
    out, at = [], 0
    for part in parts:
        at += len(part)
        out.append(at)
    return out


async def pieces(client: httpx.AsyncClient, url: str) -> list[bytes]:
    async with client.stream("POST", url, content=b"{}") as response:
        assert response.status_code == 200
        return [piece async for piece in response.aiter_raw()]


async def test_a_fast_stream_of_one_chunk_per_event_arrives_a_read_at_a_time() -> None:
    async with (
        ReplayServer(Scripted(body=BODY, split_at=offsets(EVENTS))) as server,
        httpx.AsyncClient(transport=StreamingTransport()) as client,
    ):
        got = await pieces(client, server.url + "/v1/stream")
    assert b"".join(got) == BODY
    assert len(got) < len(EVENTS) // 10  # httpx's own transport gives one piece per chunk


async def test_content_length_bodies_and_keep_alive_reuse_one_connection() -> None:
    script = Scripted(body=BODY, chunk_size=777, chunked=False)
    async with (
        ReplayServer(script, keep_alive=True) as server,
        httpx.AsyncClient(transport=StreamingTransport()) as client,
    ):
        for _ in range(5):
            assert b"".join(await pieces(client, server.url)) == BODY

    assert server.connections == 1 and len(server.requests) == 5
    assert server.requests[0].body == b"{}" and server.requests[0].headers["host"].startswith("127.0.0.1")


async def test_a_body_cut_off_mid_chunk_is_a_protocol_error() -> None:
    async with (
        ReplayServer(Scripted(body=BODY, cut_after=len(BODY) // 2)) as server,
        httpx.AsyncClient(transport=StreamingTransport()) as client,
    ):
        with pytest.raises(httpx.RemoteProtocolError, match="incomplete chunked read"):
            await pieces(client, server.url)


async def test_a_stalled_body_times_out_as_a_read_timeout() -> None:
    async with (
        ReplayServer(Scripted(body=BODY, stall_after=100)) as server,
        httpx.AsyncClient(transport=StreamingTransport(), timeout=0.2) as client,
    ):
        with pytest.raises(httpx.ReadTimeout):
            await pieces(client, server.url)


async def test_nothing_listening_is_a_connect_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with httpx.AsyncClient(transport=StreamingTransport()) as client:
        with pytest.raises(httpx.ConnectError):
            await client.get(f"http://127.0.0.1:{port}/")


async def test_a_connection_the_server_dropped_while_idle_is_not_reused() -> None:
    served = 0

    async def answer_then_hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal served
        await reader.readuntil(b"\r\n\r\n")
        served += 1
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")  # keep-alive, then closes
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer_then_hang_up, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
    async with server, httpx.AsyncClient(transport=StreamingTransport()) as client:
        assert (await client.get(url)).text == "ok"
        await asyncio.sleep(0.05)
        assert (await client.get(url)).text == "ok"
    assert served == 2


async def test_closing_the_transport_ends_a_response_still_being_read() -> None:
    async with ReplayServer(Scripted(body=BODY, stall_after=100)) as server:
        transport = StreamingTransport()
        client = httpx.AsyncClient(transport=transport, timeout=30)
        async with client.stream("GET", server.url) as response:
            stream = response.aiter_raw()
            assert await anext(stream)
            await client.aclose()
            with pytest.raises(httpx.HTTPError):
                async for _ in stream:
                    pass
