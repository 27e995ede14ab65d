"""DirectSender: HttpProvider's requests on Tau's own HTTP/1.1 client, without httpx.

What an httpx client adds above its transport is done here too, the same way: the Host,
Accept, Accept-Encoding, Connection and Content-Length headers, the path and query percent-encoded where
they must be, gzip and deflate bodies decoded, certificates checked against SSL_CERT_FILE
or SSL_CERT_DIR when set, else certifi's bundle. Proxies are not: HttpProvider sends
through httpx whenever a proxy is configured (``proxies_configured``).
"""

from __future__ import annotations

import os
import ssl
import sys
import zlib
from collections.abc import AsyncIterator, Iterator, Mapping
from urllib.parse import quote, urlsplit

from tau_ai import http_errors as errors
from tau_ai.body_encoding import RequestBody
from tau_ai.http1_connection import Body, ConnectionPool, Head, Timeouts
from tau_ai.http1_framing import request_head

_DEFAULT_HEADERS = {
    "accept": "*/*",
    "accept-encoding": "gzip, deflate",
    "connection": "keep-alive",
    "user-agent": "tau",
}
_PATH_SAFE = "/%!$&'()*+,;=:@~"
_QUERY_SAFE = _PATH_SAFE + "?"


def proxies_configured(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether any proxy setting may apply: a ``*_proxy`` variable (any case) other than
    NO_PROXY, or, on macOS and Windows, whatever the system's proxy settings say."""
    if sys.platform in ("darwin", "win32"):
        from urllib.request import getproxies

        return any(scheme != "no" for scheme in getproxies())
    return any(
        value and name.lower().endswith("_proxy") and name.lower() != "no_proxy"
        for name, value in environ.items()
    )


def default_tls_context() -> ssl.SSLContext:
    """The certificates httpx trusts by default: SSL_CERT_FILE, SSL_CERT_DIR, else certifi's."""
    if os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    if os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


class ResponseHeaders(Mapping[str, str]):
    """A response's headers by lower-case name; a repeated header's values joined by ", "."""

    __slots__ = ("_values",)

    def __init__(self, raw: list[tuple[bytes, bytes]]) -> None:
        values: dict[str, str] = {}
        for name, value in raw:
            key, text = _text(name).lower(), _text(value)
            values[key] = f"{values[key]}, {text}" if key in values else text
        self._values = values

    def __getitem__(self, name: str) -> str:
        return self._values[name.lower()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def _text(raw: bytes) -> str:
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class DirectResponse:
    """A response of ``DirectSender``; see ``http_sender.StreamedResponse``."""

    __slots__ = ("_body", "headers", "status_code")

    def __init__(self, head: Head) -> None:
        self.status_code = head.status
        self.headers = ResponseHeaders(head.headers)
        self._body: Body = head.body

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        encoding = self.headers.get("content-encoding", "").strip().lower()
        if encoding not in ("gzip", "deflate"):
            async for piece in self._body:
                yield piece
            return
        # gzip: a gzip header; deflate: zlib's, or (as some servers send it) none at all.
        decoder = zlib.decompressobj(zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS)
        first = encoding == "deflate"
        try:
            async for piece in self._body:
                if first:
                    first = False
                    try:
                        out = decoder.decompress(piece)
                    except zlib.error:
                        decoder = zlib.decompressobj(-zlib.MAX_WBITS)
                        out = decoder.decompress(piece)
                else:
                    out = decoder.decompress(piece)
                if out:
                    yield out
            rest = decoder.flush()
        except zlib.error as error:
            raise errors.DecodingError(f"{encoding} body: {error}") from None
        if rest:
            yield rest

    async def aclose(self) -> None:
        await self._body.aclose()


class DirectSender:
    """Requests straight over ``http1_connection``; see ``http_sender.Sender``."""

    def __init__(self) -> None:
        self._pool = ConnectionPool(default_tls_context)

    async def send(
        self, method: str, url: str, headers: Mapping[str, str], body: RequestBody, timeouts: Timeouts
    ) -> DirectResponse:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        try:
            port = parts.port
        except ValueError:
            raise errors.UnsupportedProtocol(f"Invalid port in URL {url!r}") from None
        host = parts.hostname or ""
        if not host:
            raise errors.UnsupportedProtocol(f"Request URL is missing a host: {url!r}")
        default_port = 443 if scheme == "https" else 80
        netloc = f"[{host}]" if ":" in host else host
        if port is not None and port != default_port:
            netloc = f"{netloc}:{port}"
        target = quote(parts.path or "/", safe=_PATH_SAFE)
        if parts.query:
            target += "?" + quote(parts.query, safe=_QUERY_SAFE)
        fields = {"host": netloc, **_DEFAULT_HEADERS}
        for name, value in headers.items():
            fields[name.lower()] = value
        if "content-length" not in fields and (body or method in ("POST", "PUT", "PATCH")):
            fields["content-length"] = str(len(body))
        raw = [(name.encode("ascii"), _encode(value)) for name, value in fields.items()]
        head = request_head(method, target.encode("ascii"), raw)
        response = await self._pool.exchange(
            (scheme, host, port or default_port), method, head, body, timeouts
        )
        return DirectResponse(response)

    async def aclose(self) -> None:
        await self._pool.aclose()


def _encode(value: str) -> bytes:
    try:
        return value.encode("ascii")
    except UnicodeEncodeError:
        return value.encode()


def direct_possible(base_url: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether requests to ``base_url`` may skip httpx: no proxy configured, no credentials
    in the URL (httpx turns those into Basic auth), and no ``TAU_HTTP_TRANSPORT=httpx``."""
    if environ.get("TAU_HTTP_TRANSPORT") == "httpx" or "@" in urlsplit(base_url).netloc:
        return False
    return not proxies_configured(environ)
