"""Proxy routes from the environment follow curl's NO_PROXY conventions, as httpx's do."""

from __future__ import annotations

import pytest

from tau_ai.http_client import environment_routes

VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


def test_proxies_route_their_schemes_and_no_proxy_hosts_go_direct(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "proxy.internal:3128")
    monkeypatch.setenv("NO_PROXY", "localhost, 10.0.0.1,::1,.corp.example,api.example")
    assert environment_routes() == {
        "https://": "http://proxy.internal:3128",
        "all://localhost": None,
        "all://10.0.0.1": None,
        "all://[::1]": None,
        "all://*.corp.example": None,
        "all://*api.example": None,
    }


def test_no_proxy_star_turns_every_proxy_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALL_PROXY", "http://proxy:1")
    monkeypatch.setenv("NO_PROXY", "*")
    assert environment_routes() == {}


def test_no_variables_no_routes() -> None:
    assert environment_routes() == {}


def test_tau_http_transport_httpx_puts_requests_on_httpx_own_transport(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import httpx

    from tau_ai.http_client import make_client
    from tau_ai.http_transport import StreamingTransport

    monkeypatch.setenv("TAU_HTTP_TRANSPORT", "httpx")
    fallback = make_client("http://127.0.0.1:1", None, connect_timeout=1, idle_timeout=1)
    monkeypatch.delenv("TAU_HTTP_TRANSPORT")
    default = make_client("http://127.0.0.1:1", None, connect_timeout=1, idle_timeout=1)
    assert isinstance(fallback._transport, httpx.AsyncHTTPTransport)
    assert isinstance(default._transport, StreamingTransport)
