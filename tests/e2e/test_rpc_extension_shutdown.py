"""An extension's ``tau.shutdown()`` in RPC mode: the command that asked answers, then Tau
stops reading and exits 0 by itself (stdin still open), telling ``session_shutdown`` first."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.e2e.rpc_project import configure_two_models, make_project, start
from tests.e2e.scripted_project import server

EXTENSION = """
from pathlib import Path

def activate(tau):
    tau.register_command("bye", lambda args: tau.shutdown() or "leaving")
    tau.on("session_shutdown", lambda event: Path("{told}").write_text(event.reason))
"""


async def test_shutdown_exits_once_the_command_has_answered(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    told = tmp_path / "told.txt"
    extension = tmp_path / "bye.py"
    extension.write_text(textwrap.dedent(EXTENSION).replace("{told}", str(told)))
    async with server("openai-completions", [ScriptedReply(text="hi")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", str(extension))
        try:
            await tau.prompt_and_wait("hello")  # a run first: the server is idle again after it
            assert not told.exists()
            await tau.prompt("/bye")
            code = await asyncio.wait_for(tau.process.wait(), 30)
        finally:
            await tau.close()
    assert code == 0
    assert told.read_text() == "quit"


RUNNING = """
from pathlib import Path

def activate(tau):
    tau.on("tool_call", lambda event: tau.shutdown())
    tau.on("session_shutdown", lambda event: Path("{told}").write_text(event.reason))
"""


async def test_shutdown_asked_during_a_run_waits_for_the_run_to_end(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project.root / "notes.txt").write_text("hello")
    told = tmp_path / "told.txt"
    extension = tmp_path / "stop.py"
    extension.write_text(textwrap.dedent(RUNNING).replace("{told}", str(told)))
    call = ScriptedCall("call_000000001", "read", {"path": "notes.txt"})
    replies = [ScriptedReply(calls=[call]), ScriptedReply(text="Read it.")]
    async with server("openai-completions", replies) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, "-e", str(extension), "--permission-mode", "yolo")
        try:
            await tau.prompt("read the notes")
            code = await asyncio.wait_for(tau.process.wait(), 30)
        finally:
            await tau.close()
    assert code == 0 and told.read_text() == "quit"
    assert len(srv.requests) == 2  # the run went on to its answer before Tau exited
