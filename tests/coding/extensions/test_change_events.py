"""Session changes, model and thinking choices and the user's !cmd, heard (and refused) by extensions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_agent.messages import BashExecutionMessage
from tau_ai.model import Model
from tau_coding.session.control import ChangeRefusedError, SessionControl
from tau_coding.session.store.manager import SessionManager
from tests.coding.extensions.helpers import Rig, fake, make_rig, write_extension

RECORDER = """
from tau_coding.extensions.events import Cancel, UserBashPatch
seen = []
refuse = set()

def activate(tau):
    for point in ("session_before_switch", "session_before_fork", "session_before_tree"):
        def before(event, point=point):
            seen.append((point, event))
            return Cancel() if point in refuse else None
        tau.on(point, before)
    tau.on("session_start", lambda e: seen.append(("session_start", e)))
    tau.on("session_tree", lambda e: seen.append(("session_tree", e)))
    tau.on("model_select", lambda e: seen.append(("model_select", e)))
    tau.on("thinking_level_select", lambda e: seen.append(("thinking_level_select", e)))

    def user_bash(event):
        seen.append(("user_bash", event))
        if event.command == "secret":
            return UserBashPatch(output="not on this machine", exit_code=3)
        if event.command.startswith("shout "):
            return UserBashPatch(command="echo " + event.command[6:].upper())
        return None
    tau.on("user_bash", user_bash)
"""


def _rig(tmp_path: Path) -> tuple[Rig, SessionControl, list[tuple[str, object]], set[str]]:
    path = write_extension(tmp_path / "ext", "recorder", RECORDER)
    rig = make_rig(tmp_path, fake("one", "two", "three"), [path])
    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    module = rig.host.extensions["recorder"].module
    assert module is not None
    return rig, control, module.seen, module.refuse


def _points(seen: list[tuple[str, object]]) -> list[str]:
    return [point for point, _ in seen]


async def test_a_new_session_is_asked_first_then_told_with_the_file_it_left(tmp_path: Path) -> None:
    rig, control, seen, _ = _rig(tmp_path)
    await rig.run("hello")
    seen.clear()  # the session_start of the first prompt
    before = str(rig.session.session_file)
    control.new_session()
    assert _points(seen) == ["session_before_switch", "session_start"]
    assert seen[0][1].reason == "new"
    start = seen[1][1]
    assert start.source == "new" and start.previous_session_file == before


async def test_a_refused_switch_leaves_the_session_where_it_was(tmp_path: Path) -> None:
    rig, control, seen, refuse = _rig(tmp_path)
    await rig.run("hello")
    first = rig.session.session_file
    control.new_session()
    refuse.add("session_before_switch")
    with pytest.raises(ChangeRefusedError, match="session switch cancelled by extension recorder"):
        control.switch_session(str(first))
    assert rig.session.session_file != first
    assert seen[-1][1].target_session_file == str(Path(str(first)).resolve())


async def test_fork_and_tree_moves_are_asked_and_may_be_refused(tmp_path: Path) -> None:
    rig, control, seen, refuse = _rig(tmp_path)
    await rig.run("first")
    await rig.run("second")
    entry = control.fork_messages()[1].entry_id
    refuse.add("session_before_fork")
    with pytest.raises(ChangeRefusedError):
        control.fork(entry)
    assert seen[-1][1].entry_id == entry and seen[-1][1].position == "before"
    refuse.clear()
    assert control.fork(entry) == "second"
    assert seen[-1][1].source == "fork"
    seen.clear()
    leaf = rig.session.log.leaf_id
    control.navigate(None)
    assert _points(seen) == ["session_before_tree", "session_tree"]
    tree = seen[1][1]
    assert tree.new_leaf_id is None and tree.old_leaf_id == leaf


async def test_model_and_thinking_choices_are_announced_with_what_was_before(tmp_path: Path) -> None:
    rig, _, seen, _ = _rig(tmp_path)
    other = Model("other-model", "fake", "fake", "http://127.0.0.1", reasoning=True)
    previous = rig.session.model
    rig.session.set_model(other, "cycle")
    rig.session.set_thinking_level("high")
    rig.session.set_thinking_level("high")  # unchanged: not announced again
    await rig.run("go")  # delivered before the run goes on
    picked = [e for p, e in seen if p == "model_select"]
    assert len(picked) == 1
    assert picked[0].model is other and picked[0].previous_model is previous
    assert picked[0].source == "cycle"
    levels = [(e.level, e.previous_level) for p, e in seen if p == "thinking_level_select"]
    assert levels == [("high", "off")]


async def test_user_bash_may_be_answered_or_rewritten_by_an_extension(tmp_path: Path) -> None:
    rig, _, seen, _ = _rig(tmp_path)
    answered = await rig.session.run_bash("secret")
    assert (answered.output, answered.exit_code) == ("not on this machine", 3)
    rewritten = await rig.session.run_bash("shout hi", exclude_from_context=True)
    assert rewritten.output.strip() == "HI" and rewritten.command == "shout hi"
    plain = await rig.session.run_bash("echo as typed")
    assert plain.output.strip() == "as typed"
    events = [e for p, e in seen if p == "user_bash"]
    assert [e.exclude_from_context for e in events] == [False, True, False]
    assert events[0].cwd == str(tmp_path)
    recorded = [m for m in rig.session.messages if isinstance(m, BashExecutionMessage)]
    assert [m.output.strip() for m in recorded] == ["not on this machine", "HI", "as typed"]


async def test_a_failing_before_handler_does_not_lock_the_user_in(tmp_path: Path) -> None:
    broken = write_extension(
        tmp_path / "ext",
        "broken",
        """
        def activate(tau):
            tau.on("session_before_switch", lambda event: 1 / 0)
        """,
    )
    rig = make_rig(tmp_path, fake("a"), [broken])
    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    first = rig.session.session_file
    control.new_session()
    assert rig.session.session_file != first
    assert any("session_before_switch handler failed: ZeroDivisionError" in w for w in rig.warnings)
