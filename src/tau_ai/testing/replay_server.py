"""A real HTTP/1.1 server on 127.0.0.1 that plays scripted responses, for tests and benchmarks.

Each request gets the next ``Scripted`` response (the last one repeats). A response is a
status, headers and a body sent the way a flaky network might: split at given byte offsets
or into fixed-size pieces, with a delay between pieces, cut off after N bytes (the socket is
closed mid-body), or stalled after N bytes (nothing more is sent until the client gives up).
Bodies go out with chunked transfer encoding unless ``chunked=False``. Every response closes
its connection unless the server is made with ``keep_alive=True``: then a connection serves
request after request (a cut or stalled response still ends it), as real providers do. Instead
of a list, ``responses`` may be a function of the request and its index, for long or
conversation-driven scripts. Every request is recorded (method, path, headers, body); the
server counts connections opened and open, and clients that hung up on a stalled or slow
response, so a test can see an abort or a leaked connection. With ``tls`` (a server-side
SSLContext) it serves HTTPS.

    async with ReplayServer([Scripted(429, {"retry-after": "0"}), Scripted(body=sse)]) as server:
        ... point a model at server.url ...
        assert server.requests[1].json()["model"] == "m"
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import ssl
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

SSE_HEADERS: Mapping[str, str] = {"content-type": "text/event-stream; charset=utf-8"}


@dataclass(frozen=True, slots=True)
class Scripted:
    """One scripted response. Offsets count body bytes."""

    status: int = 200
    headers: Mapping[str, str] = field(default_factory=lambda: dict(SSE_HEADERS))
    body: bytes = b""
    split_at: Sequence[int] = ()
    chunk_size: int | None = None
    delay: float = 0.0
    cut_after: int | None = None
    stall_after: int | None = None
    chunked: bool = True

    def pieces(self) -> list[bytes]:
        """The body split at ``split_at`` and every ``chunk_size`` bytes (never empty pieces)."""
        size = len(self.body)
        bounds = {0, size}
        bounds.update(o for o in self.split_at if 0 < o < size)
        if self.chunk_size:
            bounds.update(range(self.chunk_size, size, self.chunk_size))
        for limit in (self.cut_after, self.stall_after):
            if limit is not None and 0 < limit < size:
                bounds.add(limit)
        edges = sorted(bounds)
        return [self.body[a:b] for a, b in itertools.pairwise(edges) if b > a]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    method: str
    path: str
    headers: Mapping[str, str]  # names lower-cased
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


Responder = Callable[[RecordedRequest, int], Scripted]
"""Chooses the response to a request given the request and its 0-based index."""


class ReplayServer:
    """Serve ``responses`` in order (or as ``responses(request, index)`` says) on 127.0.0.1
    (random port) until stopped."""

    def __init__(
        self,
        responses: Scripted | Iterable[Scripted] | Responder,
        *,
        keep_alive: bool = False,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self._tls = tls
        self._responder: Responder | None = None
        self._script: list[Scripted] = []
        if isinstance(responses, Scripted):
            self._script = [responses]
        elif callable(responses):
            self._responder = responses
        else:
            self._script = list(responses)
            if not self._script:
                raise ValueError("ReplayServer needs at least one scripted response")
        self.keep_alive = keep_alive
        self.requests: list[RecordedRequest] = []
        self.hangups = 0
        self.connections = 0
        """Connections accepted so far."""
        self.open_connections = 0
        """Connections accepted and not yet closed by either side."""
        self._served = 0
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._hangup = asyncio.Event()

    @property
    def url(self) -> str:
        assert self._server is not None, "start the server first"
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"{'https' if self._tls else 'http'}://{host}:{port}"

    async def start(self) -> ReplayServer:
        self._server = await asyncio.start_server(self._connected, "127.0.0.1", 0, ssl=self._tls)
        return self

    async def stop(self) -> None:
        """Stop listening and drop every connection, including one accepted a moment ago."""
        if self._server is not None:
            # Stop accepting first and let accepts already under way hand their connection to
            # _connected (two loop turns). Closing the server under them instead trips a
            # Python 3.11 assertion that leaves the accepted socket open until it is collected.
            for listening in self._server.sockets:
                asyncio.get_running_loop().remove_reader(listening.fileno())
            for _ in range(3):
                await asyncio.sleep(0)
            self._server.close()
        for task in list(self._handlers):
            task.cancel()
        if self._handlers:
            await asyncio.wait(self._handlers)
        for writer in self._writers:  # handlers cancelled before their first step
            writer.transport.abort()
        self._writers.clear()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> ReplayServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def wait_for_hangup(self, timeout: float) -> bool:
        """Wait until a client hangs up on a response still being sent (True) or time runs out."""
        try:
            await asyncio.wait_for(self._hangup.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _next(self) -> Scripted:
        index = min(self._served, len(self._script) - 1)
        self._served += 1
        return self._script[index]

    def _choose(self, request: RecordedRequest) -> Scripted:
        if self._responder is None:
            return self._next()
        served = self._served
        self._served += 1
        return self._responder(request, served)

    def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Plain function, so the connection is known at once, not when its task first runs.
        self._writers.add(writer)
        task = asyncio.get_running_loop().create_task(self._serve(reader, writer))
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.open_connections += 1
        graceful = False
        try:
            reuse = True
            while reuse:
                request = await _read_request(reader)
                if request is None:
                    break
                self.requests.append(request)
                reuse = await self._respond(self._choose(request), reader, writer) and self.keep_alive
            graceful = True
        except (ConnectionError, asyncio.IncompleteReadError):
            self._note_hangup()
        except asyncio.CancelledError:
            pass
        finally:
            self._writers.discard(writer)
            self.open_connections -= 1
            if graceful:  # flush what was written (a "cut" is a clean close mid-body)
                writer.close()
                with contextlib.suppress(ConnectionError):
                    await writer.wait_closed()
            else:
                writer.transport.abort()

    def _note_hangup(self) -> None:
        self.hangups += 1
        self._hangup.set()

    async def _respond(
        self, script: Scripted, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        """Send ``script``; False when the response was cut or stalled (the connection ends)."""
        try:
            reason = HTTPStatus(script.status).phrase
        except ValueError:
            reason = "Unknown"
        lines = [f"HTTP/1.1 {script.status} {reason}"]
        lines += [f"{name}: {value}" for name, value in script.headers.items()]
        if script.chunked:
            lines.append("transfer-encoding: chunked")
        else:
            lines.append(f"content-length: {len(script.body)}")
        lines.append("connection: keep-alive" if self.keep_alive else "connection: close")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        sent = 0
        for piece in script.pieces():
            if script.cut_after is not None and sent >= script.cut_after:
                return False  # _serve closes the connection: the body ends mid-way
            if script.stall_after is not None and sent >= script.stall_after:
                await writer.drain()
                await self._stall(reader)
                return False
            writer.write(b"%x\r\n%s\r\n" % (len(piece), piece) if script.chunked else piece)
            sent += len(piece)
            await writer.drain()
            if script.delay:
                await asyncio.sleep(script.delay)
        if script.cut_after is not None and sent >= script.cut_after:
            return False
        if script.stall_after is not None and sent >= script.stall_after:
            await self._stall(reader)
            return False
        if script.chunked:
            writer.write(b"0\r\n\r\n")
        await writer.drain()
        return True

    async def _stall(self, reader: asyncio.StreamReader) -> None:
        """Send nothing more; return when the client closes its end (noted as a hang-up)."""
        while await reader.read(65536):
            pass
        self._note_hangup()


async def _read_request(reader: asyncio.StreamReader) -> RecordedRequest | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return None  # the client closed its end between requests
    request_line, *header_lines = head.decode("latin-1").split("\r\n")
    method, path, _ = request_line.split(" ", 2)
    headers: dict[str, str] = {}
    for line in header_lines:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(parts)
    else:
        body = await reader.readexactly(int(headers.get("content-length", "0")))
    return RecordedRequest(method, path, headers, body)


def recorded(directory: Path, name: str, **overrides: Any) -> Scripted:
    """The recording ``<directory>/<name>`` (its ``.meta.json`` and body file) as a Scripted
    response with the recorded status and headers; ``overrides`` set other Scripted fields."""
    meta = json.loads((directory / f"{name}.meta.json").read_text(encoding="utf-8"))
    body = (directory / meta["response_body_file"]).read_bytes()
    response = meta["response"]
    return Scripted(status=int(response["status"]), headers=dict(response["headers"]), body=body, **overrides)


class ReplayServerThread:
    """A ReplayServer on its own event loop in a thread, for callers that block (a subprocess
    being waited for, a tmux session being polled)::

        with ReplayServerThread([Scripted(body=...)]) as server:
            subprocess.run([... "--model", ...], env={... server.url ...})
    """

    def __init__(
        self, responses: Scripted | Iterable[Scripted] | Responder, *, keep_alive: bool = False
    ) -> None:
        import threading

        self._loop = asyncio.new_event_loop()
        self.server = ReplayServer(responses, keep_alive=keep_alive)
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self._loop).result(10)
        return self.server

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
