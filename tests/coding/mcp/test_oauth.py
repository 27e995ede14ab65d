"""OAuth for a remote MCP server, on loopback only: a streamable-HTTP server that wants a bearer
token, with its own fake authorization server (tests/coding/mcp/servers/oauth_server.py), and a
"browser" that follows the authorization URL back to Tau's loopback callback."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tau_agent.cancellation import CancellationToken
from tau_coding.mcp.config import ServerConfig
from tau_coding.mcp.manager import McpManager
from tests.coding.mcp.conftest import SERVERS, _free_port, _wait_for_port

LIMIT = 90.0


@pytest.fixture
def secure(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The server's /mcp URL and its request log."""
    port, log = _free_port(), tmp_path / "requests.log"
    process = subprocess.Popen(
        [sys.executable, str(SERVERS / "oauth_server.py"), str(port)],
        env={**os.environ, "MCP_FIXTURE_LOG": str(log)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port)
        yield f"http://127.0.0.1:{port}/mcp", log
    finally:
        process.terminate()
        process.wait(10)


class Browser:
    """Opens the authorization URL as a browser would: follows the redirect to the callback."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def __call__(self, url: str) -> None:
        self.opened.append(url)
        threading.Thread(target=lambda: urllib.request.urlopen(url, timeout=30).read(), daemon=True).start()


async def _connect(url: str, tmp_path: Path, browser: Browser | None) -> tuple[McpManager, list[str]]:
    reports: list[str] = []
    manager = McpManager(
        [ServerConfig("secure", "http", url=url)],
        cwd=tmp_path,
        report=reports.append,
        connect_timeout=LIMIT,
        token_file=tmp_path / "home" / "mcp-auth.json" if browser is not None else None,
        open_url=browser,
    )
    manager.start()
    assert await manager.wait_settled(LIMIT + 10) == []
    return manager, reports


async def test_oauth_authorizes_once_stores_tokens_privately_and_reuses_them(
    secure: tuple[str, Path], tmp_path: Path
) -> None:
    url, log = secure
    browser = Browser()
    manager, reports = await _connect(url, tmp_path, browser)
    try:
        assert reports == [] and manager.statuses()[0].state == "ready"
        result = await manager.call("secure", "whoami", {}, timeout=30, signal=CancellationToken())
        assert result.content[0].text == "authorized"  # type: ignore[union-attr]
    finally:
        manager.close()
    assert len(browser.opened) == 1 and "/authorize?" in browser.opened[0]
    assert "code_challenge=" in browser.opened[0]  # PKCE
    token_file = tmp_path / "home" / "mcp-auth.json"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    entry = json.loads(token_file.read_text())[url]
    assert entry["tokens"]["access_token"] and entry["client"]["client_id"]
    assert "GET /authorize" in log.read_text()

    log.write_text("")
    again, reports = await _connect(url, tmp_path, browser)  # a later session: the stored token
    try:
        result = await again.call("secure", "whoami", {}, timeout=30, signal=CancellationToken())
        assert result.content[0].text == "authorized"  # type: ignore[union-attr]
    finally:
        again.close()
    assert len(browser.opened) == 1 and "/authorize" not in log.read_text()


async def test_without_oauth_the_server_fails_in_one_line(secure: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = secure
    manager, reports = await _connect(url, tmp_path, None)
    manager.close()
    assert manager.statuses()[0].state in ("failed", "stopped")
    assert len(reports) == 1 and reports[0].startswith("MCP server secure:") and "\n" not in reports[0]


def test_a_stored_client_for_another_callback_port_is_registered_again(tmp_path: Path) -> None:
    import asyncio

    from mcp.shared.auth import OAuthClientInformationFull

    from tau_coding.mcp.oauth import FileTokenStorage

    old = FileTokenStorage(tmp_path / "t.json", "http://x/mcp", "http://127.0.0.1:1111/callback")
    info = OAuthClientInformationFull(client_id="c", redirect_uris=["http://127.0.0.1:1111/callback"])  # type: ignore[list-item]
    asyncio.run(old.set_client_info(info))
    assert asyncio.run(old.get_client_info()) is not None
    moved = FileTokenStorage(tmp_path / "t.json", "http://x/mcp", "http://127.0.0.1:2222/callback")
    assert asyncio.run(moved.get_client_info()) is None
