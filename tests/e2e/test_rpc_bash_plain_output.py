"""A user's shell command (RPC ``bash``, the TUI's ``!cmd``) is recorded as plain text, as Pi
records it: colour codes and other escape sequences go, and so do carriage returns."""

from __future__ import annotations

import json
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server

COLOURED = r"printf '\033[1;31mred\033[0m text\r\n\033]0;title\00750%%\r100%%\n'"


async def test_rpc_bash_returns_and_records_output_without_escape_sequences(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="Seen it.")]) as srv:
        project.configure(srv.url)
        tau = await start(project)
        result = await tau.bash(COLOURED)
        assert result["output"] == "red text\n50%100%\n", result
        assert result["exitCode"] == 0
        recorded = [m for m in await tau.get_messages() if m["role"] == "bashExecution"]
        assert [m["output"] for m in recorded] == ["red text\n50%100%\n"]
        await tau.prompt_and_wait("What did I run?")
        sent = json.dumps(srv.requests[0].json())
        assert "red text" in sent and "\\u001b" not in sent
        assert await tau.close() == 0
