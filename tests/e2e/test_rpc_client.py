"""The typed client: ids matched to responses, events in order, a server that ends early."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.sdk.rpc_client import RpcClient, RpcClosedError, RpcError
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server


async def test_a_configuration_error_ends_the_server_and_pending_requests_fail(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    tau = await RpcClient.start(["--model", "nowhere/none"], cwd=project.root, env=project.env())
    with pytest.raises(RpcClosedError):
        await tau.get_state()
    assert await tau.close() == 2
    assert "tau: " in await tau.stderr_text()
    assert [e async for e in tau.events(timeout=5)] == []


async def test_concurrent_requests_each_get_their_own_response(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        async with await start(project) as tau:
            results = await asyncio.gather(
                tau.get_state(),
                tau.get_last_assistant_text(),
                tau.get_fork_messages(),
                tau.get_session_stats(),
            )
            assert results[0]["messageCount"] == 0 and results[1] is None and results[2] == []
            assert results[3]["totalMessages"] == 0
            with pytest.raises(RpcError) as raised:
                await tau.request("set_thinking_level", level="loud")
            assert raised.value.command == "set_thinking_level" and "loud" in raised.value.error
