"""StreamingTransport: Tau's own HTTP/1.1 exchanges (``http1_connection``) as an httpx transport.

httpx's own transport parses a response with h11 in pure Python, one HTTP chunk at a time,
and model servers send one chunk per SSE event: at a few thousand events a second that
parsing was half of Tau's client CPU per streamed token. This transport hands httpx a body
that arrives one piece per socket read instead. HttpProvider uses it under an httpx client
when proxies are configured (for the origins NO_PROXY exempts); with none, it sends through
``http_direct`` and imports no httpx. What a caller may rely on:

* httpx's contract: requests from an ``httpx.AsyncClient`` (which adds Host, Content-Length,
  content decoding and proxy routing above the transport), httpx's exceptions
  (``ConnectTimeout``, ``ConnectError``, ``ReadTimeout``, ``ReadError``, ``WriteError``,
  ``RemoteProtocolError``) and the request's ``timeout`` extension (connect, read, write).
* Keep-alive, the resend of a request on a stale connection, http and https origins
  (certificates checked with httpx's default context): see ``http1_connection``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from tau_ai import http_errors as errors
from tau_ai.http1_connection import Body, ConnectionPool, Timeouts
from tau_ai.http1_framing import request_head
from tau_ai.httpx_loader import load_httpx

load_httpx()
import httpx  # noqa: E402  (after load_httpx, which keeps httpx's CLI out)

_AS_HTTPX: dict[type[Exception], type[httpx.TransportError]] = {
    errors.ConnectTimeout: httpx.ConnectTimeout,
    errors.ReadTimeout: httpx.ReadTimeout,
    errors.WriteTimeout: httpx.WriteTimeout,
    errors.PoolTimeout: httpx.PoolTimeout,
    errors.ConnectError: httpx.ConnectError,
    errors.ReadError: httpx.ReadError,
    errors.WriteError: httpx.WriteError,
    errors.RemoteProtocolError: httpx.RemoteProtocolError,
    errors.UnsupportedProtocol: httpx.UnsupportedProtocol,
}


def as_httpx(error: errors.HTTPError, request: httpx.Request) -> Exception:
    """httpx's exception for one of Tau's own transport failures."""
    kind = _AS_HTTPX.get(type(error), httpx.TransportError)
    return kind(str(error), request=request)


class StreamingTransport(httpx.AsyncBaseTransport):
    """An HTTP/1.1 transport whose response bodies arrive one socket read at a time."""

    def __init__(self, *, keepalive_expiry: float = 5.0, max_idle: int = 8) -> None:
        self._pool = ConnectionPool(
            httpx.create_ssl_context, keepalive_expiry=keepalive_expiry, max_idle=max_idle
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        origin = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))
        given = request.extensions.get("timeout", {})
        timeouts = Timeouts(given.get("connect"), given.get("read"), given.get("write"), given.get("pool"))
        head = request_head(request.method, url.raw_path, request.headers.raw)
        stream = request.stream
        assert isinstance(stream, httpx.AsyncByteStream)  # an AsyncClient's request
        # Not request.aread(), which would keep the body on the request (see http_attempt._Content).
        body = b"".join([part async for part in stream])
        try:
            response = await self._pool.exchange(origin, request.method, head, body, timeouts)
        except errors.HTTPError as error:
            raise as_httpx(error, request) from None
        return httpx.Response(
            response.status,
            headers=response.headers,
            stream=_Body(response.body, request),
            request=request,
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": response.reason},
        )

    async def aclose(self) -> None:
        """Close every connection, idle or still carrying a response (which then fails)."""
        await self._pool.aclose()


class _Body(httpx.AsyncByteStream):
    """A response body as httpx reads it, its failures as httpx's exceptions."""

    def __init__(self, body: Body, request: httpx.Request) -> None:
        self._body = body
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for piece in self._body:
                yield piece
        except errors.StreamClosed:
            raise httpx.StreamClosed() from None
        except errors.HTTPError as error:
            raise as_httpx(error, self._request) from None

    async def aclose(self) -> None:
        await self._body.aclose()
