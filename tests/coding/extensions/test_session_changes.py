"""``tau.sessions`` from a command's handler: each change goes through SessionControl, so the
``session_before_*`` handlers hear it (and may refuse), and the frontend is told afterwards."""

from __future__ import annotations

from pathlib import Path

from tau_agent.messages import UserMessage
from tau_agent.session.entries import MessageEntry
from tau_coding.extensions.control_link import attach_control
from tau_coding.session.control import SessionControl
from tau_coding.session.events import InputHandledEvent, SessionEvent
from tau_coding.session.store.manager import SessionManager
from tests.coding.extensions.helpers import Rig, fake, make_rig, write_extension

CHANGER = """
from tau_coding.extensions import Cancel

refuse = set()
heard = []

def activate(tau):
    def before(kind):
        def handler(event):
            heard.append((kind, event))
            return Cancel(f"no {kind}") if kind in refuse else None

        async def awaited(event):  # tree's handler is async: its refusal must count as well
            return handler(event)

        return awaited if kind == "tree" else handler

    for kind in ("switch", "fork", "tree"):
        tau.on(f"session_before_{kind}", before(kind))

    def answer(result):
        return f"cancelled: {result.reason}" if result.cancelled else "done"

    async def new(args):
        return answer(await tau.sessions.new())

    async def switch(args):
        return answer(await tau.sessions.switch(args))

    async def fork(args):
        return answer(await tau.sessions.fork(args))

    async def tree(args):
        target, _, label = args.partition(" ")
        return answer(await tau.sessions.navigate_tree(target, label=label or None))

    async def idle(args):
        await tau.sessions.wait_for_idle()
        return "idle"

    for name, handler in (("x-new", new), ("x-switch", switch), ("x-fork", fork), ("x-tree", tree), ("x-idle", idle)):
        tau.register_command(name, handler)
"""


def _answer(events: list[SessionEvent]) -> str | None:
    return next(e.text for e in events if isinstance(e, InputHandledEvent))


def _rig(tmp_path: Path) -> tuple[Rig, SessionControl, list[tuple[str, str | None]], object]:
    ext = write_extension(tmp_path / "ext", "changer", CHANGER)
    rig = make_rig(tmp_path, fake("first", "second", "third"), [ext])
    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    attach_control(control)
    told: list[tuple[str, str | None]] = []
    control.outside_change.append(lambda change: told.append((change.kind, change.editor_text)))
    module = rig.host.extensions["changer"].module
    assert module is not None
    return rig, control, told, module


def _user_entry(rig: Rig) -> str:
    return next(
        e.id
        for e in rig.session.log.entries
        if isinstance(e, MessageEntry) and isinstance(e.message, UserMessage)
    )


async def test_new_and_switch_go_through_the_control_and_fire_before_switch(tmp_path: Path) -> None:
    rig, _, told, module = _rig(tmp_path)
    await rig.run("hello")
    first = rig.session.session_file
    assert first is not None
    assert _answer(await rig.run("/x-new")) == "done"
    assert rig.session.messages == [] and rig.session.session_file != first and told == [("new", None)]
    assert [(kind, e.reason) for kind, e in module.heard] == [("switch", "new")]
    assert _answer(await rig.run(f"/x-switch {first}")) == "done"
    assert rig.session.session_file == first and len(rig.session.messages) == 2
    assert [(kind, e.reason) for kind, e in module.heard][-1] == ("switch", "resume")
    module.refuse.add("switch")
    assert _answer(await rig.run("/x-new")) == "cancelled: no switch"
    assert rig.session.session_file == first and len(told) == 2  # nothing changed, nobody told


async def test_fork_before_a_message_hands_its_text_to_the_frontend(tmp_path: Path) -> None:
    rig, _, told, module = _rig(tmp_path)
    await rig.run("the question")
    entry = _user_entry(rig)
    assert _answer(await rig.run(f"/x-fork {entry}")) == "done"
    assert told == [("fork", "the question")] and rig.session.messages == []
    assert [(kind, e.entry_id, e.position) for kind, e in module.heard] == [("fork", entry, "before")]


async def test_navigate_tree_moves_labels_and_may_be_refused(tmp_path: Path) -> None:
    rig, _, told, module = _rig(tmp_path)
    await rig.run("one")
    await rig.run("two")
    entry = _user_entry(rig)
    assert _answer(await rig.run(f"/x-tree {entry} start")) == "done"
    assert [type(m).__name__ for m in rig.session.messages] == ["UserMessage"]
    assert rig.session.log.labels[entry] == "start" and told == [("tree", None)]
    module.refuse.add("tree")
    leaf = rig.session.log.leaf_id
    assert _answer(await rig.run(f"/x-tree {entry}")) == "cancelled: no tree"
    assert rig.session.log.leaf_id == leaf


async def test_wait_for_idle_returns_when_nothing_runs(tmp_path: Path) -> None:
    rig, _, _, _ = _rig(tmp_path)
    assert _answer(await rig.run("/x-idle")) == "idle"
