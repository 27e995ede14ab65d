"""A long `tau -p` run in one process: more model requests than httpx's pool has connections.

Every response must be given back to the pool, and a finished stream read to its end, so that
the whole run goes over one keep-alive connection in every wire API.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import APIS, ScriptedCall, ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

TURNS = 120  # past the pool's 100 connections, where a leak used to hang the run


@pytest.fixture(params=APIS)
def project(request: pytest.FixtureRequest, tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", request.param)


async def test_a_long_run_finishes_over_one_keep_alive_connection(project: Project) -> None:
    (project.root / "a.txt").write_text("alpha\n")
    replies = [
        ScriptedReply(calls=[ScriptedCall(f"call_{n:09d}", "read", {"path": "a.txt"})]) for n in range(TURNS)
    ]
    replies.append(ScriptedReply(text="All read."))
    async with server(project.api, replies, keep_alive=True) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--no-session", "--model", MODEL, "Read a.txt often.")
        assert result.code == 0, result.stderr
        assert result.stdout == "All read.\n"
        assert len(srv.requests) == TURNS + 1
        assert srv.connections <= 2, f"{srv.connections} connections for {TURNS + 1} requests"
