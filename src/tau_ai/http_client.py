"""The httpx client HttpProvider makes: its transport, proxy routes, timeouts and TLS.

The client runs on ``StreamingTransport``. httpx honours HTTP(S)_PROXY, ALL_PROXY and
NO_PROXY only for a client on its own transport, so the proxy routes are mounted here with
the rules httpx applies (curl's NO_PROXY conventions): a proxied origin goes through httpx's
proxy transport, every other one (NO_PROXY hosts included) through ``StreamingTransport``.
``TAU_HTTP_TRANSPORT=httpx`` in the environment puts every request on httpx's own transport.
"""

from __future__ import annotations

import ipaddress
import os
from urllib.request import getproxies

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
