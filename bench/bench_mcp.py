"""Costs of MCP: start-up with 10 configured stdio servers, and Tau's share of a tool call.

Targets (issue 21): 10 configured stdio servers add at most 20 ms to the time before the first
prompt can be sent (the composition root, ``build_session``, in a fresh interpreter: the servers
start on the MCP thread and must not block it); a tool call through Tau adds at most 2 ms over
the same call made directly with the SDK (the server's own time and the stdio round trip).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tau_agent.cancellation import CancellationToken
from tau_coding.mcp.config import ServerConfig
from tau_coding.mcp.manager import McpManager
from tau_coding.mcp.tools import mcp_tool

Case = tuple[str, Callable[[], float], str, float | None]
SERVER = Path(__file__).resolve().parents[1] / "tests" / "coding" / "mcp" / "servers" / "tool_server.py"

STARTUP = """
import sys, time
from pathlib import Path
import tau_coding.app.wiring, tau_coding.session.coding_session  # what every run imports anyway
from tau_coding.app.wiring import Options, build_session
env = {"HOME": sys.argv[1], "TAU_HOME": sys.argv[2]}
start = time.perf_counter()
session = build_session(Options(model="local/m", no_session=True), env, Path(sys.argv[1]), warn=print)
print((time.perf_counter() - start) * 1000)
"""


def _home(tmp: Path, servers: int) -> tuple[Path, Path]:
    home, tau_home = tmp / f"home{servers}", tmp / f"home{servers}" / ".tau"
    tau_home.mkdir(parents=True)
    provider = {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "models": [{"id": "m"}]}
    (tau_home / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
    entries = {f"s{n}": {"command": sys.executable, "args": [str(SERVER)]} for n in range(servers)}
    if entries:
        (tau_home / "settings.json").write_text(json.dumps({"mcpServers": entries}))
    return home, tau_home


def _startup(home: Path, tau_home: Path) -> float:
    out = subprocess.run(
        [sys.executable, "-c", STARTUP, str(home), str(tau_home)], capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def startup_added_ms(servers: int, runs: int) -> float:
    """Fastest build_session with ``servers`` configured, less the fastest with none.

    Runs alternate, and the fastest of each is kept: on a shared machine the spread of single
    runs (tens of ms) would otherwise hide what is measured."""
    with tempfile.TemporaryDirectory() as tmp:
        bare, configured = _home(Path(tmp), 0), _home(Path(tmp), servers)
        _startup(*bare), _startup(*configured)  # the first runs write .pyc files
        base, with_servers = [], []
        for _ in range(runs):
            base.append(_startup(*bare))
            with_servers.append(_startup(*configured))
        return max(0.0, min(with_servers) - min(base))


async def _through_tau(calls: int) -> float:
    config = ServerConfig("srv", "stdio", sys.executable, (str(SERVER),))
    manager = McpManager([config], cwd=Path.cwd(), report=print)
    manager.start()
    try:
        assert await manager.wait_settled(120) == []
        info = next(t for t in manager.statuses()[0].tools if t.name == "echo")
        tool = mcp_tool(manager, info, timeout=30)
        signal = CancellationToken()
        await tool.execute("w", {"text": "warm"}, signal, lambda _: None)
        start = time.perf_counter()
        for n in range(calls):
            await tool.execute(f"c{n}", {"text": "x"}, signal, lambda _: None)
        return (time.perf_counter() - start) / calls
    finally:
        manager.close()


async def _direct(calls: int) -> float:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    async with Client(params, mode="legacy", cache=None) as client:
        await client.call_tool("echo", {"text": "warm"})
        start = time.perf_counter()
        for _ in range(calls):
            await client.call_tool("echo", {"text": "x"})
        return (time.perf_counter() - start) / calls


def call_overhead_ms(calls: int, repeats: int) -> float:
    """Per call: (through Tau's tool and MCP thread) - (the SDK called directly), best of ``repeats``."""
    tau = min(asyncio.run(_through_tau(calls)) for _ in range(repeats))
    direct = min(asyncio.run(_direct(calls)) for _ in range(repeats))
    return max(0.0, (tau - direct) * 1000)


def cases(smoke: bool) -> list[Case]:
    runs, calls, repeats = (1, 20, 1) if smoke else (15, 200, 3)
    return [
        ("mcp: start-up added by 10 stdio servers", lambda: startup_added_ms(10, runs), "ms", 20.0),
        ("mcp: tool call overhead over the SDK", lambda: call_overhead_ms(calls, repeats), "ms/call", 2.0),
    ]


if __name__ == "__main__":
    print(json.dumps({name: fn() for name, fn, _, _ in cases(smoke=False)}, indent=2))
