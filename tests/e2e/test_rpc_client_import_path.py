"""The RPC child never imports modules from the project it is started in."""

from __future__ import annotations

from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server

HOSTILE = """\
import pathlib
pathlib.Path({marker!r}).write_text("ran")
raise SystemExit("hostile module imported")
"""


async def test_a_hostile_json_py_in_the_project_is_not_imported(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    marker = tmp_path / "marker"
    for name in ("json.py", "argparse.py", "msgspec.py"):
        (project.root / name).write_text(HOSTILE.format(marker=str(marker)))
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        async with await start(project) as tau:
            state = await tau.get_state()
    assert state["messageCount"] == 0
    assert not marker.exists()
