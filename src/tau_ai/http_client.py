"""The httpx client HttpProvider makes when proxies are configured, and its Sender.

HttpProvider sends through Tau's own client (``http_direct``) unless a proxy is configured,
a client or transport is injected, or ``TAU_HTTP_TRANSPORT=httpx`` asks for httpx; then
through ``HttpxSender`` on a client from ``make_client``.

The client runs on ``StreamingTransport``. httpx honours HTTP(S)_PROXY, ALL_PROXY and
NO_PROXY only for a client on its own transport, so the proxy routes are mounted here with
the rules httpx applies (curl's NO_PROXY conventions): a proxied origin goes through httpx's
proxy transport, every other one (NO_PROXY hosts included) through ``StreamingTransport``.
``TAU_HTTP_TRANSPORT=httpx`` in the environment puts every request on httpx's own transport.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import AsyncIterator, Mapping
from urllib.request import getproxies

from tau_ai import http_errors as errors
from tau_ai.body_encoding import BodyParts, RequestBody
from tau_ai.http1_connection import Timeouts
from tau_ai.http_transport import StreamingTransport
from tau_ai.httpx_loader import load_httpx

load_httpx()
import httpx  # noqa: E402  (after load_httpx, which keeps httpx's CLI out)

_PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


def make_client(
    base_url: str,
    transport: httpx.AsyncBaseTransport | None,
    *,
    connect_timeout: float,
    idle_timeout: float,
) -> httpx.AsyncClient:
    """A client for one model's server; an injected ``transport`` is used as given (no proxies)."""
    timeout = httpx.Timeout(
        connect=connect_timeout, read=idle_timeout, write=idle_timeout, pool=connect_timeout
    )
    verify = needs_tls(base_url)
    if transport is not None:
        return httpx.AsyncClient(transport=transport, timeout=timeout, trust_env=True, verify=verify)
    if os.environ.get("TAU_HTTP_TRANSPORT") == "httpx":  # the way back, should a server need it
        return httpx.AsyncClient(timeout=timeout, trust_env=True, verify=verify)
    return httpx.AsyncClient(
        transport=StreamingTransport(),
        mounts=proxy_mounts(verify),
        timeout=timeout,
        trust_env=True,
        verify=verify,
    )


def needs_tls(base_url: str) -> bool:
    """Whether a proxy transport must load certificates: not for a plain-HTTP server reached
    directly. Loading the system's CA bundle costs ~40 ms of a start; a local model server
    (Ollama, llama.cpp, a test server) on http:// never uses it. With a proxy configured it
    is kept, since the proxy itself may be reached over TLS.
    """
    if not base_url.lower().startswith("http://"):
        return True
    return any(os.environ.get(name) for name in _PROXY_VARIABLES)


def environment_routes() -> dict[str, str | None]:
    """URL pattern -> proxy URL, or None where NO_PROXY says to connect directly."""
    found = getproxies()
    routes: dict[str, str | None] = {}
    for scheme in ("http", "https", "all"):
        if found.get(scheme):
            url = found[scheme]
            routes[f"{scheme}://"] = url if "://" in url else f"http://{url}"
    for host in (part.strip() for part in found.get("no", "").split(",")):
        if host == "*":
            return {}
        if not host:
            continue
        if "://" in host:
            routes[host] = None
        elif _is_ip(host, 4) or host.lower() == "localhost":
            routes[f"all://{host}"] = None
        elif _is_ip(host, 6):
            routes[f"all://[{host}]"] = None
        else:
            routes[f"all://*{host}"] = None
    return routes


def proxy_mounts(verify: bool) -> dict[str, httpx.AsyncBaseTransport | None]:
    """The ``mounts`` of an httpx client: a proxy transport per proxied pattern."""
    return {
        pattern: None if url is None else httpx.AsyncHTTPTransport(proxy=url, verify=verify, trust_env=True)
        for pattern, url in environment_routes().items()
    }


def _is_ip(host: str, version: int) -> bool:
    try:
        return ipaddress.ip_address(host.split("/")[0]).version == version
    except ValueError:
        return False


_AS_OWN: dict[type[Exception], type[errors.HTTPError]] = {
    httpx.ConnectTimeout: errors.ConnectTimeout,
    httpx.ReadTimeout: errors.ReadTimeout,
    httpx.WriteTimeout: errors.WriteTimeout,
    httpx.PoolTimeout: errors.PoolTimeout,
    httpx.TimeoutException: errors.TimeoutException,
    httpx.ConnectError: errors.ConnectError,
    httpx.ReadError: errors.ReadError,
    httpx.WriteError: errors.WriteError,
    httpx.NetworkError: errors.NetworkError,
    httpx.RemoteProtocolError: errors.RemoteProtocolError,
    httpx.LocalProtocolError: errors.LocalProtocolError,
    httpx.ProtocolError: errors.ProtocolError,
    httpx.ProxyError: errors.ProxyError,
    httpx.UnsupportedProtocol: errors.UnsupportedProtocol,
    httpx.TransportError: errors.TransportError,
    httpx.DecodingError: errors.DecodingError,
    httpx.HTTPError: errors.HTTPError,
}


def as_own(error: httpx.HTTPError) -> errors.HTTPError:
    """Tau's exception of the same name (or the nearest kind) for one of httpx's."""
    for kind in type(error).__mro__:
        own = _AS_OWN.get(kind)
        if own is not None:
            return own(str(error))
    return errors.HTTPError(str(error))


class HttpxSender:
    """Requests through an httpx client; see ``http_sender.Sender``."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def send(
        self, method: str, url: str, headers: Mapping[str, str], body: RequestBody, timeouts: Timeouts
    ) -> _HttpxResponse:
        timeout = httpx.Timeout(
            connect=timeouts.connect, read=timeouts.read, write=timeouts.write, pool=timeouts.pool
        )
        content = _Content(body)
        try:
            request = self.client.build_request(
                method, url, headers=headers, content=content, timeout=timeout
            )
            response = await self.client.send(request, stream=True)
        except httpx.HTTPError as error:
            content.data = b""
            raise as_own(error) from error
        except BaseException:
            content.data = b""
            raise
        return _HttpxResponse(response, content)

    async def aclose(self) -> None:
        await self.client.aclose()


class _HttpxResponse:
    __slots__ = ("_content", "_response")

    def __init__(self, response: httpx.Response, content: _Content) -> None:
        self._response = response
        self._content = content

    @property
    def status_code(self) -> int:
        return self._response.status_code

    @property
    def headers(self) -> Mapping[str, str]:
        return self._response.headers

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.aiter_bytes():
                yield chunk
        except httpx.HTTPError as error:
            raise as_own(error) from error

    async def aclose(self) -> None:
        try:
            await self._response.aclose()
        finally:
            self._content.data = b""


class _Content:
    """A request body httpx can send more than once (a retry on a stale connection).

    httpx's request and response refer to each other, so they wait for the cyclic garbage
    collector, which runs ever more rarely as a session grows; the body (the whole history,
    hundreds of KB) is let go when the response is closed instead of waiting with them.
    """

    __slots__ = ("data",)

    def __init__(self, body: RequestBody) -> None:
        self.data = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        body = self.data
        if not isinstance(body, BodyParts):
            yield body
            return
        for part in body.parts:
            if isinstance(part, bytes):
                yield part
            else:
                for piece in part.slices():
                    yield piece
