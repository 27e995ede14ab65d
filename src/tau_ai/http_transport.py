"""StreamingTransport: a lean HTTP/1.1 transport for httpx, made for long streamed responses.

httpx's own transport parses a response with h11 in pure Python, one HTTP chunk at a time,
and model servers send one chunk per SSE event: at a few thousand events a second that
parsing was half of Tau's client CPU per streamed token. This transport reads the socket
with asyncio and unframes the body in one tight loop per read, so a response body arrives
as one piece per socket read holding every complete chunk of it (never more than one read
waits for data). What a caller may rely on:

* httpx's contract: requests from an ``httpx.AsyncClient`` (which adds Host, Content-Length,
  content decoding and proxy routing above the transport), httpx's exceptions
  (``ConnectTimeout``, ``ConnectError``, ``ReadTimeout``, ``ReadError``, ``WriteError``,
  ``RemoteProtocolError``) and the request's ``timeout`` extension (connect, read, write).
* Keep-alive: a response read to its end and closed gives its connection back for the next
  request to the same origin; a response closed early closes its connection. Idle
  connections are dropped after ``keepalive_expiry`` seconds. A request whose reused
  connection turns out closed by the server before any response byte (the server's idle
  timeout racing the request) is sent again once on a new connection. No limit on
  connections: Tau makes a handful of requests at a time, not hundreds.
* http and https origins (certificates checked with httpx's default context, loaded on the
  first https connection). Proxies are not this transport's business: ``trust_env`` clients
  route proxied origins through httpx's own proxy transports (see ``HttpProvider``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from collections.abc import AsyncIterator, Callable

from tau_ai.http1_framing import ChunkedDecoder, Headers, body_framing, parse_head, request_head
from tau_ai.httpx_loader import load_httpx

load_httpx()
import httpx  # noqa: E402  (after load_httpx, which keeps httpx's CLI out)

READ_SIZE = 256 * 1024
MAX_HEAD = 64 * 1024
_INCOMPLETE = "peer closed connection without sending complete message body"
Origin = tuple[str, str, int]


class _Connection:
    __slots__ = ("expires", "live", "origin", "reader", "writer")

    def __init__(
        self,
        origin: Origin,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        live: set[_Connection],
    ) -> None:
        self.origin = origin
        self.reader = reader
        self.writer = writer
        self.expires = 0.0
        self.live = live  # the transport's open connections, this one among them until closed
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


class StreamingTransport(httpx.AsyncBaseTransport):
    """An HTTP/1.1 transport whose response bodies arrive one socket read at a time."""

    def __init__(self, *, keepalive_expiry: float = 5.0, max_idle: int = 8) -> None:
        self._idle: dict[Origin, list[_Connection]] = {}
        self._live: set[_Connection] = set()
        self._keepalive_expiry = keepalive_expiry
        self._max_idle = max_idle
        self._ssl: ssl.SSLContext | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme not in ("http", "https"):
            raise httpx.UnsupportedProtocol(f"Request URL has an unsupported protocol '{url.scheme}://'")
        origin: Origin = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))
        timeouts = request.extensions.get("timeout", {})
        head = request_head(request.method, url.raw_path, request.headers.raw)
        stream = request.stream
        assert isinstance(stream, httpx.AsyncByteStream)  # an AsyncClient's request
        # Not request.aread(), which would keep the body on the request (see http_attempt._Content).
        body = b"".join([part async for part in stream])
        connection = self._take_idle(origin)
        if connection is not None:
            try:
                return await self._exchange(connection, request, head, body, timeouts)
            except (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError) as error:
                if not str(error).startswith(_STALE):
                    raise  # the server answered something: not a stale connection
        connection = await self._connect(origin, timeouts.get("connect"), request)
        return await self._exchange(connection, request, head, body, timeouts)

    async def aclose(self) -> None:
        """Close every connection, idle or still carrying a response (which then fails)."""
        self._idle = {}
        for connection in list(self._live):
            await connection.aclose()

    def _take_idle(self, origin: Origin) -> _Connection | None:
        connections = self._idle.get(origin)
        now = time.monotonic()
        while connections:
            connection = connections.pop()
            if connection.usable(now):
                return connection
            connection.close()
        return None

    def _give_back(self, connection: _Connection) -> None:
        """Keep a connection whose response was read whole for the next request."""
        connections = self._idle.setdefault(connection.origin, [])
        if len(connections) >= self._max_idle or connection.writer.is_closing():
            connection.close()
            return
        connection.expires = time.monotonic() + self._keepalive_expiry
        connections.append(connection)

    async def _connect(self, origin: Origin, timeout: float | None, request: httpx.Request) -> _Connection:
        scheme, host, port = origin
        context = None
        if scheme == "https":
            if self._ssl is None:
                self._ssl = httpx.create_ssl_context()
                self._ssl.set_alpn_protocols(["http/1.1"])
            context = self._ssl
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(
                    host, port, ssl=context, server_hostname=host if context else None, limit=MAX_HEAD
                )
        except TimeoutError:
            raise httpx.ConnectTimeout("timed out connecting", request=request) from None
        except (OSError, ssl.SSLError) as error:
            raise httpx.ConnectError(str(error), request=request) from error
        return _Connection(origin, reader, writer, self._live)

    async def _exchange(
        self,
        connection: _Connection,
        request: httpx.Request,
        head: bytes,
        body: bytes,
        timeouts: dict[str, float | None],
    ) -> httpx.Response:
        """Send the request and read the response head; the body is left to the stream."""
        writer, reader = connection.writer, connection.reader
        try:
            try:
                writer.write(head + body if len(body) < 65536 else head)
                if len(body) >= 65536:
                    writer.write(body)
                async with asyncio.timeout(timeouts.get("write")):
                    await writer.drain()
            except TimeoutError:
                raise httpx.WriteTimeout("timed out sending the request", request=request) from None
            except OSError as error:
                raise httpx.WriteError(f"{_STALE}: {error}", request=request) from error
            read_timeout = timeouts.get("read")
            while True:
                status, reason, headers, http10 = await _read_head(reader, read_timeout, request)
                if status >= 200 or status == 101:
                    break  # 1xx interim responses (100 Continue, 103 Early Hints) are skipped
        except BaseException:
            connection.close()
            raise
        stream = _Body(self._give_back, connection, request, (status, headers, http10), read_timeout)

        return httpx.Response(
            status,
            headers=headers,
            stream=stream,
            request=request,
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": reason},
        )


_STALE = "the connection was closed before the response began"


async def _read_head(
    reader: asyncio.StreamReader, timeout: float | None, request: httpx.Request
) -> tuple[int, bytes, Headers, bool]:
    """(status, reason, headers, whether the server speaks HTTP/1.0) of the next response."""
    try:
        async with asyncio.timeout(timeout):
            raw = await reader.readuntil(b"\r\n\r\n")
    except TimeoutError:
        raise httpx.ReadTimeout("timed out waiting for the response", request=request) from None
    except asyncio.IncompleteReadError as error:
        message = _STALE if not error.partial else "the connection closed inside the response head"
        raise httpx.RemoteProtocolError(message, request=request) from None
    except asyncio.LimitOverrunError:
        raise httpx.RemoteProtocolError("response head too long", request=request) from None
    except OSError as error:
        raise httpx.ReadError(f"{_STALE}: {error}", request=request) from error
    try:
        status, reason, headers = parse_head(raw)
    except ValueError as error:
        raise httpx.RemoteProtocolError(str(error), request=request) from None
    return status, reason, headers, raw.startswith(b"HTTP/1.0")


class _Body(httpx.AsyncByteStream):
    """A response body: one piece per socket read; its connection goes back once read whole."""

    def __init__(
        self,
        give_back: Callable[[_Connection], None],
        connection: _Connection,
        request: httpx.Request,
        head: tuple[int, Headers, bool],
        read_timeout: float | None,
    ) -> None:
        self._give_back = give_back
        self._connection: _Connection | None = connection
        self._request = request
        self._timeout = read_timeout
        self._complete = False
        status, headers, http10 = head
        chunked, self._length, self._reusable = body_framing(request.method, status, headers, http10=http10)
        self._chunked = ChunkedDecoder() if chunked else None

    async def __aiter__(self) -> AsyncIterator[bytes]:
        connection = self._connection
        if connection is None:
            raise httpx.StreamClosed()
        reader, request, timeout = connection.reader, self._request, self._timeout
        chunked, remaining = self._chunked, self._length
        if remaining == 0:
            self._finish()
            return
        while True:
            try:
                async with asyncio.timeout(timeout):
                    data = await reader.read(READ_SIZE)
            except TimeoutError:
                raise httpx.ReadTimeout("timed out waiting for response data", request=request) from None
            except OSError as error:
                raise httpx.ReadError(str(error) or type(error).__name__, request=request) from error
            if not data:
                if chunked is not None:
                    raise httpx.RemoteProtocolError(
                        f"{_INCOMPLETE} (incomplete chunked read)", request=request
                    )
                if remaining is not None:
                    raise httpx.RemoteProtocolError(_INCOMPLETE, request=request)
                self._finish()
                return
            if chunked is not None:
                try:
                    piece = chunked.feed(data)
                except ValueError as error:
                    raise httpx.RemoteProtocolError(
                        f"malformed chunked body: {error}", request=request
                    ) from None
                if chunked.done:
                    self._reusable = self._reusable and not chunked.extra
                    self._finish()
                    if piece:
                        yield piece
                    return
                if piece:
                    yield piece
                continue
            if remaining is not None:
                if len(data) >= remaining:
                    self._reusable = self._reusable and len(data) == remaining
                    self._finish()
                    yield data[:remaining]
                    return
                remaining -= len(data)
            yield data

    def _finish(self) -> None:
        self._complete = True

    async def aclose(self) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        if self._complete and self._reusable:
            self._give_back(connection)
        else:
            await connection.aclose()
