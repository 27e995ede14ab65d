"""The proxy routes of HTTP(S)_PROXY, ALL_PROXY and NO_PROXY, as httpx mounts.

httpx honours these variables only for a client on its own transport; HttpProvider's client
runs on ``StreamingTransport``, so it mounts httpx's proxy transports itself with the same
rules httpx applies (curl's NO_PROXY conventions): a proxied origin goes through httpx's
proxy transport, every other one (NO_PROXY hosts included) through the client's transport.
"""

from __future__ import annotations

import ipaddress
from urllib.request import getproxies

from tau_ai.httpx_loader import load_httpx

load_httpx()
import httpx  # noqa: E402  (after load_httpx, which keeps httpx's CLI out)


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
