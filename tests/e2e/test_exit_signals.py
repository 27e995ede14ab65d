"""SIGTERM and SIGHUP end ``tau`` like Ctrl+C (SIGINT): running commands (and their children)
are killed, the session keeps the run so far and is closed, and the exit code says it was
interrupted."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"
COMMAND = "sleep 300 & echo $! > child.pid; echo started; sleep 300"


# Run first in the child, then replaced by ``tau`` (same pid): the exit signals at their defaults
# and not blocked, as in a terminal, whatever the test process inherited (a suite started under
# nohup passes SIGHUP on ignored, and Tau keeps an ignored signal ignored, as nohup asks).
DEFAULT_EXIT_SIGNALS = """
import os, signal, sys
exits = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
for signum in exits:
    signal.signal(signum, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, exits)
os.execv(sys.argv[1], sys.argv[1:])
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]


async def _wait_for(path: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text().strip()):
        assert time.monotonic() < deadline, f"{path} never appeared"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize(
    "signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"]
)
async def test_an_exit_signal_kills_the_running_command_and_its_children_and_keeps_the_session(
    tmp_path: Path, signum: int
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", API)
    reply = ScriptedReply(calls=[ScriptedCall("call_000000001", "bash", {"command": COMMAND})])
    async with server(API, [reply, ScriptedReply(text="never")]) as srv:
        project.configure(srv.url)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", DEFAULT_EXIT_SIGNALS,
            sys.executable, "-m", "tau_coding", "-p", "--permission-mode", "yolo", "--model", MODEL, "run it",
            cwd=root, env=project.env(),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        await _wait_for(root / "child.pid")
        child = int((root / "child.pid").read_text())
        assert _alive(child)
        process.send_signal(signum)
        _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 130, err.decode()
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not _alive(child), "the command's background child survived"
    (session,) = project.session_files()
    entries = [json.loads(line) for line in session.read_text().splitlines()]
    messages = [e["message"] for e in entries if e.get("type") == "message"]
    assert [m["role"] for m in messages[:2]] == ["user", "assistant"]  # the call is on record
    assert messages[1]["content"][-1]["name"] == "bash"
