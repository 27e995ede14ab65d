"""A session file that needed repair says so in one line, and the bytes cut off are kept."""

from __future__ import annotations

from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"


async def test_a_bad_middle_line_and_a_torn_tail_are_named_and_the_cut_bytes_kept(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", API)
    async with server(API, [ScriptedReply(text="First."), ScriptedReply(text="Second.")]) as srv:
        project.configure(srv.url)
        first = await project.tau("-p", "--model", MODEL, "one")
        assert first.code == 0, first.stderr
        (session,) = project.session_files()
        header, *entries = session.read_bytes().splitlines(keepends=True)
        torn = b'{"type":"message","message":{"role":"user","content":"half a wri'
        session.write_bytes(header + b"not json at all\n" + b"".join(entries) + torn)
        second = await project.tau("-p", "--model", MODEL, "--session", str(session), "two")
    assert second.code == 0 and second.stdout == "Second.\n", second.stderr
    (line,) = (
        second.stderr.splitlines()
    )  # line 7: header, 2 settings, the checkpoint, 2 messages, the bad one
    assert line.startswith("tau: warning: session ") and " was repaired: " in line, line
    assert "line 2 is not a JSON object" in line and "line 7 is incomplete" in line and ".repaired-" in line
    (side,) = session.parent.glob(f"{session.name}.repaired-*")
    assert side.read_bytes() == torn
    assert torn not in session.read_bytes()
