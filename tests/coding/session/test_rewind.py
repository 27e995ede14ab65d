"""Rewind through SessionControl: a checkpoint before each prompt, recorded in the session;
code, conversation, both and summarise; the files the tools and bash changed come back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_agent.messages import UserMessage
from tau_agent.session.entries import BranchSummaryEntry, CustomEntry
from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import call, reply
from tau_ai.model import Model
from tau_coding.checkpoints.store import CheckpointStore
from tau_coding.session.checkpoint_entries import CHECKPOINT_ENTRY
from tau_coding.session.checkpointing import SessionCheckpoints
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import ControlError, SessionControl
from tau_coding.session.store.manager import SessionManager
from tau_coding.tools.builtin import create_coding_tools
from tests.coding.checkpoints.tree_files import dot_git_digest, git, tree_state

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")


def _control(tmp_path: Path, provider: FakeProvider) -> tuple[SessionControl, Path]:
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    (project / ".gitignore").write_text("build/\n")
    (project / "app.py").write_text("x = 1\n")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    manager = SessionManager(tmp_path / "sessions", str(project))
    session = CodingSession(
        log=manager.new(),
        model=MODEL,
        provider_factory=lambda model: provider,
        tools=list(create_coding_tools(project).values()),
        system_prompt="",
        cwd=project,
    )
    session.checkpoints = SessionCheckpoints(CheckpointStore(project, tmp_path / "checkpoints"))
    return SessionControl(session, manager), project


async def _prompt(control: SessionControl, text: str) -> None:
    async for _ in control.session.prompt(text):
        pass


def _script() -> FakeProvider:
    return FakeProvider(
        [
            reply(call("write", {"path": "new.py", "content": "print('new')\n"})),
            "Wrote it.",
            reply(
                call("bash", {"command": "sed -i 's/1/2/' app.py && mkdir -p build && echo o > build/out"})
            ),
            "Edited.",
            reply(call("bash", {"command": "mv new.py moved.py && rm app.py && seq 3 > gen.txt"})),
            "Moved.",
            "Nothing to do.",
        ]
    )


async def test_every_prompt_checkpoint_restores_code_and_conversation(tmp_path: Path) -> None:
    control, project = _control(tmp_path, _script())
    user_git = dot_git_digest(project)
    states = []
    for text in ("write", "edit", "move", "nothing"):
        states.append(tree_state(project, skip=(".git", "build")))
        await _prompt(control, text)
    entries = [e for e in control.session.log.entries if isinstance(e, CustomEntry)]
    assert [e.custom_type for e in entries] == [CHECKPOINT_ENTRY] * 4
    points = control.list_checkpoints()
    assert [p.record.prompt for p in points] == ["write", "edit", "move", "nothing"]
    assert {c.path for c in points[0].changes} == {"app.py", "moved.py", "gen.txt"}
    assert points[-1].changes == ()
    for point, expected in zip(reversed(points), reversed(states), strict=True):
        outcome = await control.restore_checkpoint(point.record.checkpoint_id, "code")
        assert tree_state(project, skip=(".git", "build")) == expected
        assert outcome.editor_text is None
    assert (project / "build" / "out").read_text() == "o\n"  # ignored output: untouched
    assert dot_git_digest(project) == user_git
    outcome = await control.restore_checkpoint(points[1].record.checkpoint_id, "conversation")
    assert outcome.editor_text == "edit" and outcome.restored is None
    prompts = [m.content for m in control.session.messages if isinstance(m, UserMessage)]
    assert prompts == ["write"]


async def test_a_rewind_can_be_undone_from_its_before_rewind_checkpoint(tmp_path: Path) -> None:
    control, project = _control(tmp_path, _script())
    await _prompt(control, "write")
    await _prompt(control, "edit")
    (project / "mine.txt").write_text("typed by the user\n")
    after = tree_state(project, skip=(".git",))
    first = control.list_checkpoints()[0].record.checkpoint_id
    preview = control.preview_checkpoint(first)
    assert {c.path for c in preview} == {"app.py", "new.py", "mine.txt"}
    outcome = await control.restore_checkpoint(first, "both")
    assert outcome.restored is not None and outcome.restored.before is not None
    assert not (project / "mine.txt").exists() and control.session.messages == []
    undo = [p for p in control.list_checkpoints() if p.record.kind == "before rewind"]
    assert [p.record.checkpoint_id for p in undo] == [outcome.restored.before.id]
    await control.restore_checkpoint(undo[0].record.checkpoint_id, "both")
    assert tree_state(project, skip=(".git",)) == after
    prompts = [m.content for m in control.session.messages if isinstance(m, UserMessage)]
    assert prompts == ["write", "edit"]


async def test_checkpoints_move_with_a_fork_and_a_resume(tmp_path: Path) -> None:
    control, project = _control(tmp_path, _script())
    await _prompt(control, "write")
    await _prompt(control, "edit")
    first, second = control.list_checkpoints()
    original = control.session.session_file
    assert original is not None
    control.fork(second.record.message_entry_id or "")
    assert [p.record.prompt for p in control.list_checkpoints()] == ["write"]
    await control.restore_checkpoint(first.record.checkpoint_id, "code")
    assert not (project / "new.py").exists()
    forked = control.session.session_file
    assert forked is not None and forked != original
    control.switch_session(original)  # resume: the entries are read back from the file
    assert [p.record.prompt for p in control.list_checkpoints()] == ["write", "edit"]
    control.switch_session(forked)
    point, undo = control.list_checkpoints()  # the fork's own code restore left a "before rewind"
    assert point.record.checkpoint_id == first.record.checkpoint_id and undo.record.kind == "before rewind"


async def test_summarise_from_here_keeps_the_files_and_summarises_what_followed(tmp_path: Path) -> None:
    script = [reply(call("write", {"path": "new.py", "content": "n\n"})), "Wrote it.", "It wrote new.py."]
    control, project = _control(tmp_path, FakeProvider(script))
    await _prompt(control, "write")
    point = control.list_checkpoints()[0]
    outcome = await control.restore_checkpoint(point.record.checkpoint_id, "summarize")
    assert outcome.editor_text == "write" and (project / "new.py").exists()
    assert isinstance(control.session.log.entries[-1], BranchSummaryEntry)


async def test_bad_requests_are_one_line_errors(tmp_path: Path) -> None:
    control, _ = _control(tmp_path, _script())
    await _prompt(control, "write")
    with pytest.raises(ControlError, match="no checkpoint 'nope'"):
        await control.restore_checkpoint("nope", "code")
    with pytest.raises(ControlError, match="unknown restore 'all'"):
        await control.restore_checkpoint(control.list_checkpoints()[0].record.checkpoint_id, "all")
    control.session.checkpoints = None
    with pytest.raises(ControlError, match="checkpoints are off"):
        control.list_checkpoints()
