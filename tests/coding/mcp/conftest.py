"""Real MCP servers for the tests: the fixture scripts in ./servers, over stdio or HTTP on loopback."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tau_coding.mcp.config import ServerConfig

SERVERS = Path(__file__).resolve().parent / "servers"
TOOL_SERVER = str(SERVERS / "tool_server.py")
BROKEN_SERVER = str(SERVERS / "broken_server.py")


def stdio_server(name: str = "srv", *args: str, env: dict[str, str] | None = None) -> ServerConfig:
    return ServerConfig(name, "stdio", sys.executable, (TOOL_SERVER, *args), env or {})


def broken_server(name: str, how: str) -> ServerConfig:
    return ServerConfig(name, "stdio", sys.executable, (BROKEN_SERVER, how))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_port(port: int, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)


def _serve(transport: str) -> Iterator[int]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, TOOL_SERVER, transport, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port)
        yield port
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture(scope="module")
def http_port() -> Iterator[int]:
    """A streamable-HTTP fixture server on 127.0.0.1: http://127.0.0.1:PORT/mcp."""
    yield from _serve("http")


@pytest.fixture(scope="module")
def sse_port() -> Iterator[int]:
    """An SSE fixture server on 127.0.0.1: http://127.0.0.1:PORT/sse."""
    yield from _serve("sse")
