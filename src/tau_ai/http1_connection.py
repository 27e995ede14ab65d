"""Tau's own HTTP/1.1 exchanges on asyncio streams: connections kept alive, bodies per read.

Model servers send one HTTP chunk per SSE event. This reads the socket with asyncio and
unframes the body in one tight loop per read (``http1_framing``), so a response body arrives
as one piece per socket read holding every complete chunk of it (never more than one read
waits for data). It knows nothing of httpx: ``http_transport.StreamingTransport`` puts it
under an httpx client, ``http_direct.DirectSender`` under HttpProvider with no httpx at all.
What a caller may rely on:

* Failures are ``http_errors`` exceptions (``ConnectTimeout``, ``ConnectError``,
  ``ReadTimeout``, ``ReadError``, ``WriteTimeout``, ``WriteError``, ``RemoteProtocolError``).
* Keep-alive: a body read to its end and closed gives its connection back for the next
  exchange with the same origin; a body closed early closes its connection. Idle
  connections are dropped after ``keepalive_expiry`` seconds. An exchange whose reused
  connection turns out closed by the server before any response byte (the server's idle
  timeout racing the request) is sent again once on a new connection. No limit on
  connections: Tau makes a handful of requests at a time, not hundreds.
* http and https origins; the TLS context is made by ``tls_context`` on the first https
  connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from tau_ai import http_errors as errors
from tau_ai.body_encoding import BodyParts, RequestBody, whole
from tau_ai.http1_framing import ChunkedDecoder, Headers, body_framing, parse_head

READ_SIZE = 256 * 1024
WRITE_SLICE = 256 * 1024
MAX_HEAD = 64 * 1024
INCOMPLETE = "peer closed connection without sending complete message body"
STALE = "the connection was closed before the response began"
Origin = tuple[str, str, int]  # scheme, host, port


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds (None: no limit) to connect, to wait for a free connection, and for each
    write and read."""

    connect: float | None = None
    read: float | None = None
    write: float | None = None
    pool: float | None = None


class Connection:
    __slots__ = ("expires", "live", "origin", "reader", "writer")

    def __init__(
        self,
        origin: Origin,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        live: set[Connection],
    ) -> None:
        self.origin = origin
        self.reader = reader
        self.writer = writer
        self.expires = 0.0
        self.live = live  # the pool's open connections, this one among them until closed
        live.add(self)

    def usable(self, now: float) -> bool:
        return now < self.expires and not self.writer.is_closing() and not self.reader.at_eof()

    def close(self) -> None:
        self.live.discard(self)
        self.writer.close()

    async def aclose(self) -> None:
        """Close and wait (briefly) until the socket is released."""
        self.close()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(1.0):
                await self.writer.wait_closed()


@dataclass(frozen=True, slots=True)
class Head:
    """A response's status line and headers; its body is read from ``body``."""

    status: int
    reason: bytes
    headers: Headers
    body: Body


class ConnectionPool:
    """Connections by origin; ``exchange`` sends one request and reads its response head."""

    def __init__(
        self,
        tls_context: Callable[[], ssl.SSLContext],
        *,
        keepalive_expiry: float = 5.0,
        max_idle: int = 8,
    ) -> None:
        self._idle: dict[Origin, list[Connection]] = {}
        self._live: set[Connection] = set()
        self._keepalive_expiry = keepalive_expiry
        self._max_idle = max_idle
        self._tls_context = tls_context
        self._ssl: ssl.SSLContext | None = None

    async def exchange(
        self, origin: Origin, method: str, head: bytes, body: RequestBody, timeouts: Timeouts
    ) -> Head:
        """Send ``head`` + ``body`` to ``origin``; the response head, its body still to read."""
        if origin[0] not in ("http", "https"):
            raise errors.UnsupportedProtocol(f"Request URL has an unsupported protocol '{origin[0]}://'")
        connection = self._take_idle(origin)
        if connection is not None:
            try:
                return await self._exchange(connection, method, head, body, timeouts)
            except (errors.ReadError, errors.WriteError, errors.RemoteProtocolError) as error:
                if not str(error).startswith(STALE):
                    raise  # the server answered something: not a stale connection
        connection = await self._connect(origin, timeouts.connect)
        return await self._exchange(connection, method, head, body, timeouts)

    async def aclose(self) -> None:
        """Close every connection, idle or still carrying a response (which then fails)."""
        self._idle = {}
        for connection in list(self._live):
            await connection.aclose()

    def _take_idle(self, origin: Origin) -> Connection | None:
        connections = self._idle.get(origin)
        now = time.monotonic()
        while connections:
            connection = connections.pop()
            if connection.usable(now):
                return connection
            connection.close()
        return None

    def _give_back(self, connection: Connection) -> None:
        """Keep a connection whose response was read whole for the next request."""
        connections = self._idle.setdefault(connection.origin, [])
        if len(connections) >= self._max_idle or connection.writer.is_closing():
            connection.close()
            return
        connection.expires = time.monotonic() + self._keepalive_expiry
        connections.append(connection)

    async def _connect(self, origin: Origin, timeout: float | None) -> Connection:
        scheme, host, port = origin
        context = None
        if scheme == "https":
            if self._ssl is None:
                self._ssl = self._tls_context()
                self._ssl.set_alpn_protocols(["http/1.1"])
            context = self._ssl
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(
                    host, port, ssl=context, server_hostname=host if context else None, limit=MAX_HEAD
                )
        except TimeoutError:
            raise errors.ConnectTimeout("timed out connecting") from None
        except (OSError, ssl.SSLError) as error:
            raise errors.ConnectError(str(error)) from error
        return Connection(origin, reader, writer, self._live)

    async def _exchange(
        self, connection: Connection, method: str, head: bytes, body: RequestBody, timeouts: Timeouts
    ) -> Head:
        writer, reader = connection.writer, connection.reader
        try:
            try:
                await _send(writer, head, body, timeouts.write)
            except TimeoutError:
                raise errors.WriteTimeout("timed out sending the request") from None
            except OSError as error:
                raise errors.WriteError(f"{STALE}: {error}") from error
            while True:
                status, reason, headers, http10 = await _read_head(reader, timeouts.read)
                if status >= 200 or status == 101:
                    break  # 1xx interim responses (100 Continue, 103 Early Hints) are skipped
        except BaseException:
            connection.close()
            raise
        framing = body_framing(method, status, headers, http10=http10)
        return Head(status, reason, headers, Body(self._give_back, connection, framing, timeouts.read))


async def _send(writer: asyncio.StreamWriter, head: bytes, body: RequestBody, timeout: float | None) -> None:
    """Write ``head`` and ``body`` (its parts in order), a big body a slice at a time, each
    drained before the next (``timeout`` is per slice). asyncio's socket transport copies
    whatever the socket does not take at once into its own buffer: a whole 30 MB body written
    in one call would be held twice until the server read it."""
    if len(body) < WRITE_SLICE:
        writer.write(head + whole(body))
        async with asyncio.timeout(timeout):
            await writer.drain()
        return
    writer.write(head)
    parts = body if isinstance(body, BodyParts) else BodyParts((body,))
    for piece in parts.slices(WRITE_SLICE):
        writer.write(piece)
        async with asyncio.timeout(timeout):
            await writer.drain()


async def _read_head(reader: asyncio.StreamReader, timeout: float | None) -> tuple[int, bytes, Headers, bool]:
    """(status, reason, headers, whether the server speaks HTTP/1.0) of the next response."""
    try:
        async with asyncio.timeout(timeout):
            raw = await reader.readuntil(b"\r\n\r\n")
    except TimeoutError:
        raise errors.ReadTimeout("timed out waiting for the response") from None
    except asyncio.IncompleteReadError as error:
        message = STALE if not error.partial else "the connection closed inside the response head"
        raise errors.RemoteProtocolError(message) from None
    except asyncio.LimitOverrunError:
        raise errors.RemoteProtocolError("response head too long") from None
    except OSError as error:
        raise errors.ReadError(f"{STALE}: {error}") from error
    try:
        status, reason, headers = parse_head(raw)
    except ValueError as error:
        raise errors.RemoteProtocolError(str(error)) from None
    return status, reason, headers, raw.startswith(b"HTTP/1.0")


class Body:
    """A response body: one piece per socket read; its connection goes back once read whole."""

    __slots__ = ("_chunked", "_complete", "_connection", "_give_back", "_length", "_reusable", "_timeout")

    def __init__(
        self,
        give_back: Callable[[Connection], None],
        connection: Connection,
        framing: tuple[bool, int | None, bool],
        read_timeout: float | None,
    ) -> None:
        self._give_back = give_back
        self._connection: Connection | None = connection
        self._timeout = read_timeout
        self._complete = False
        chunked, self._length, self._reusable = framing
        self._chunked = ChunkedDecoder() if chunked else None

    async def __aiter__(self) -> AsyncIterator[bytes]:
        connection = self._connection
        if connection is None:
            raise errors.StreamClosed("the response body was read after it was closed")
        reader, timeout = connection.reader, self._timeout
        chunked, remaining = self._chunked, self._length
        if remaining == 0:
            self._complete = True
            return
        while True:
            try:
                async with asyncio.timeout(timeout):
                    data = await reader.read(READ_SIZE)
            except TimeoutError:
                raise errors.ReadTimeout("timed out waiting for response data") from None
            except OSError as error:
                raise errors.ReadError(str(error) or type(error).__name__) from error
            if not data:
                if chunked is not None:
                    raise errors.RemoteProtocolError(f"{INCOMPLETE} (incomplete chunked read)")
                if remaining is not None:
                    raise errors.RemoteProtocolError(INCOMPLETE)
                self._complete = True
                return
            if chunked is not None:
                try:
                    piece = chunked.feed(data)
                except ValueError as error:
                    raise errors.RemoteProtocolError(f"malformed chunked body: {error}") from None
                if chunked.done:
                    self._reusable = self._reusable and not chunked.extra
                    self._complete = True
                    if piece:
                        yield piece
                    return
                if piece:
                    yield piece
                continue
            if remaining is not None:
                if len(data) >= remaining:
                    self._reusable = self._reusable and len(data) == remaining
                    self._complete = True
                    yield data[:remaining]
                    return
                remaining -= len(data)
            yield data

    async def aclose(self) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        if self._complete and self._reusable:
            self._give_back(connection)
        else:
            await connection.aclose()
