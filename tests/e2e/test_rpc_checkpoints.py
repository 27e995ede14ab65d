"""list_checkpoints and restore_checkpoint against the real ``tau --mode rpc`` process: the
files a bash tool call changed come back, and the rewind can itself be undone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.sdk.rpc_client import RpcError
from tests.coding.checkpoints.tree_files import dot_git_digest, git, tree_state
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server


def _bash(command: str) -> ScriptedReply:
    return ScriptedReply(calls=[ScriptedCall("call_1", "bash", {"command": command})])


async def test_rpc_lists_checkpoints_and_restores_code_and_conversation(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    root = project.root
    git(root, "init", "-q")
    (root / "app.py").write_text("x = 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    user_git = dot_git_digest(root)
    replies = [
        _bash("sed -i 's/1/2/' app.py && seq 3 > gen.txt"),
        ScriptedReply(text="Done."),
        _bash("rm app.py"),
        ScriptedReply(text="Removed."),
    ]
    async with server(API, replies) as srv:
        project.configure(srv.url)
        tau = await start(project, "--permission-mode", "yolo")  # the tools write without asking
        start_state = tree_state(root)
        await tau.prompt_and_wait("change it")
        after_first = tree_state(root)
        await tau.prompt_and_wait("remove it")
        listed = await tau.list_checkpoints()
        assert [c["prompt"] for c in listed] == ["change it", "remove it"]
        assert [c["kind"] for c in listed] == ["prompt", "prompt"]
        first = listed[0]
        assert {f["path"]: f["change"] for f in first["changedFiles"]} == {
            "app.py": "deleted",
            "gen.txt": "added",
        }
        assert first["linesAdded"] == 3 and first["linesRemoved"] == 1
        assert (await tau.get_tree())["leafId"] != first["leafId"]

        result = await tau.restore_checkpoint(listed[1]["id"], "code")
        assert tree_state(root) == after_first and result["text"] is None
        assert {f["path"] for f in result["changedFiles"]} == {"app.py"}
        both = await tau.restore_checkpoint(first["id"], "both")
        assert tree_state(root) == start_state
        assert both["text"] == "change it" and both["leafId"] == first["leafId"]
        assert await tau.get_messages() == []

        undo = [c for c in await tau.list_checkpoints() if c["kind"] == "before rewind"]
        assert [c["id"] for c in undo][-1] == both["beforeRewindId"]
        await tau.restore_checkpoint(both["beforeRewindId"], "code")
        assert tree_state(root) == after_first
        with pytest.raises(RpcError, match="no checkpoint 'feedface'"):
            await tau.restore_checkpoint("feedface", "code")
        with pytest.raises(RpcError, match="restore"):
            await tau.request("restore_checkpoint", checkpointId=first["id"], restore="everything")
        assert await tau.close() == 0
    assert dot_git_digest(root) == user_git


async def test_no_checkpoints_flag_turns_them_off(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        tau = await start(project, "--no-checkpoints")
        await tau.prompt_and_wait("hello")
        with pytest.raises(RpcError, match="checkpoints are off"):
            await tau.list_checkpoints()
        assert await tau.close() == 0
    assert not (project.tau_home / "checkpoints").exists()
