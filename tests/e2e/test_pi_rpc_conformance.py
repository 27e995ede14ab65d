"""A recorded Pi 0.73.1 RPC conversation, replayed against ``tau --mode rpc``: every response
and event matches in type, order and fields (times, ids and counts aside)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from tests.e2e.pi_conformance import NOTES, RECORDING, REPLIES, Row, drive, shape
from tests.e2e.scripted_project import MODEL, Project, server

# Where Tau differs on purpose (docs/rpc.md says why): rows Tau adds, and Pi's rows rewritten.
TAU_ONLY = {"agent_settled"}  # Tau's "the session is idle again", after agent_end


def _expected(pi: list[Row]) -> list[Row]:
    out: list[Row] = []
    for row in pi:
        kind, detail, keys, inner = row
        if kind == "message_update":  # Tau's updates carry the delta, not the whole partial message
            row = (kind, detail, tuple(k for k in keys if k != "message"), inner)
        out.append(row)
    # A tool result's message events come before tool_execution_end in Tau (mutate, then announce).
    end = next(i for i, r in enumerate(out) if r[0] == "tool_execution_end")
    out[end : end + 3] = [out[end + 1], out[end + 2], out[end]]
    return out


async def test_tau_answers_the_recorded_pi_conversation_in_the_same_shape(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "notes.txt").write_text(NOTES)
    project = Project(root, tmp_path / "home", "openai-completions")
    async with server(project.api, REPLIES) as srv:
        project.configure(srv.url)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tau_coding", "--mode", "rpc", "--model", MODEL,
            cwd=root, env=project.env(),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        lines = await drive(process)
        assert await asyncio.wait_for(process.wait(), 30) == 0
    tau = [row for row in shape(lines) if row[0] not in TAU_ONLY]
    pi = _expected(shape([json.loads(line) for line in RECORDING.read_text().splitlines()]))
    for index, (ours, theirs) in enumerate(zip(tau, pi, strict=False)):
        # the same kind in the same place, with every field Pi sends (Tau may send more)
        assert ours[:2] == theirs[:2], f"line {index}: tau {ours[:2]} where pi has {theirs[:2]}"
        missing = (set(theirs[2]) - set(ours[2])) | (set(theirs[3]) - set(ours[3]))
        assert not missing, f"line {index} ({ours[0]} {ours[1]}): tau lacks {sorted(missing)}"
    assert len(tau) == len(pi), (tau[len(pi) :], pi[len(tau) :])
