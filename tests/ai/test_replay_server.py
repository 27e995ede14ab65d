"""The replay server itself: body splitting, recordings, request capture."""

from __future__ import annotations

import gc
import socket
import sys
from pathlib import Path

import httpx

from tau_ai.testing.replay_server import (
    RecordedRequest,
    ReplayServer,
    ReplayServerThread,
    Scripted,
    recorded,
)

DATA = Path(__file__).resolve().parent.parent / "data" / "providers"


def test_pieces_split_at_offsets_sizes_and_limits_without_losing_bytes() -> None:
    script = Scripted(body=b"abcdefghij", split_at=(3, 3, 0, 99), chunk_size=4, cut_after=9)
    assert script.pieces() == [b"abc", b"d", b"efgh", b"i", b"j"]
    assert b"".join(script.pieces()) == script.body
    assert Scripted(body=b"").pieces() == []


def test_recorded_loads_status_headers_and_exact_body() -> None:
    script = recorded(DATA / "google", "error_400_api_key_invalid_sse")
    assert script.status == 400
    assert script.headers == {"content-type": "text/event-stream"}
    assert script.body == (DATA / "google" / "error_400_api_key_invalid_sse.sse").read_bytes()


async def test_serves_in_order_repeats_the_last_and_records_requests() -> None:
    script = [
        Scripted(503, {"x-a": "1"}, b"busy", chunked=False),
        Scripted(body=b"data: ok\n\n", chunk_size=3),
    ]
    async with ReplayServer(script) as server, httpx.AsyncClient(trust_env=False) as client:
        first = await client.post(server.url + "/v1/x", json={"n": 1}, headers={"X-Trace": "t"})
        second = await client.post(server.url + "/v1/x", content=b"raw")
        third = await client.get(server.url + "/again")
    assert (first.status_code, first.headers["x-a"], first.content) == (503, "1", b"busy")
    assert (second.status_code, second.content) == (200, b"data: ok\n\n")
    assert third.content == b"data: ok\n\n"
    assert [(r.method, r.path) for r in server.requests] == [
        ("POST", "/v1/x"),
        ("POST", "/v1/x"),
        ("GET", "/again"),
    ]
    assert server.requests[0].json() == {"n": 1} and server.requests[0].headers["x-trace"] == "t"
    assert server.requests[1].body == b"raw"


async def test_a_keep_alive_server_serves_many_requests_on_one_connection_and_counts_it() -> None:
    def respond(request: RecordedRequest, index: int) -> Scripted:
        return Scripted(body=b"reply %d to %s" % (index, request.body))

    async with ReplayServer(respond, keep_alive=True) as server, httpx.AsyncClient(trust_env=False) as client:
        bodies = [(await client.post(server.url, content=b"q%d" % n)).content for n in range(5)]
        assert server.open_connections == 1
    assert bodies == [b"reply %d to q%d" % (n, n) for n in range(5)]
    assert server.connections == 1


async def test_a_cut_response_ends_a_keep_alive_connection_and_the_next_request_opens_another() -> None:
    script = [Scripted(body=b"0123456789", cut_after=4), Scripted(body=b"whole")]
    async with ReplayServer(script, keep_alive=True) as server, httpx.AsyncClient(trust_env=False) as client:
        try:
            await client.get(server.url)
        except httpx.RemoteProtocolError:
            pass
        else:
            raise AssertionError("the cut response read as complete")
        assert (await client.get(server.url)).content == b"whole"
    assert server.connections == 2


async def test_a_connection_close_server_opens_one_connection_per_request() -> None:
    async with ReplayServer(Scripted(body=b"x")) as server, httpx.AsyncClient(trust_env=False) as client:
        for _ in range(3):
            assert (await client.get(server.url)).headers["connection"] == "close"
    assert server.connections == 3 and server.open_connections == 0


def test_a_server_stopped_just_after_a_client_connects_leaves_no_socket_open() -> None:
    # A killed client's last connection can reach the server as it stops; before the fix the
    # accepted socket was never closed and pytest failed the test that owned the server.
    leaked: list[str] = []
    original = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: leaked.append(repr(unraisable.exc_value))
    try:
        for _ in range(100):
            with ReplayServerThread([Scripted(body=b"x")]) as server:
                port = int(server.url.rsplit(":", 1)[1])
                client = socket.create_connection(("127.0.0.1", port))
            client.close()
            gc.collect()
    finally:
        sys.unraisablehook = original
    assert leaked == []
