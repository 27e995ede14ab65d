"""What a ``session_before_tree``/``_fork`` handler may answer besides no, and Pi's ``setup`` and
``withSession`` on ``tau.sessions``: a real session, a scripted provider, the real control."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_agent.messages import BranchSummaryMessage, CustomMessage, UserMessage
from tau_agent.session.entries import BranchSummaryEntry, MessageEntry
from tau_coding.extensions.control_link import attach_control
from tau_coding.session.control import ChangeRefusedError, SessionControl
from tau_coding.session.events import InputHandledEvent, SessionEvent
from tau_coding.session.store.manager import SessionManager
from tests.coding.extensions.helpers import Rig, fake, make_rig, write_extension

ANSWERS = """
import asyncio
from tau_coding.extensions import Cancel, ForkDecision, TreeDecision

mode = {"tree": None, "fork": None}
heard = []

def activate(tau):
    async def before_tree(event):  # async on purpose: its answer must count everywhere
        await asyncio.sleep(0)
        heard.append(("before_tree", event))
        if mode["tree"] == "refuse":
            return Cancel("not now")
        if mode["tree"] == "summary":
            return TreeDecision(summary="written by hand", details={"by": "answers"}, label="mine")
        if mode["tree"] == "instructions":
            return TreeDecision(custom_instructions="ONLY LIST FILES")
        if mode["tree"] == "replace":
            return TreeDecision(custom_instructions="ONLY LIST FILES", replace_instructions=True)
        return None

    async def before_fork(event):
        return ForkDecision(skip_conversation_restore=True) if mode["fork"] == "keep" else None

    tau.on("session_before_tree", before_tree)
    tau.on("session_before_fork", before_fork)
    tau.on("session_tree", lambda event: heard.append(("tree", event)))

    async def summarise(args):
        result = await tau.sessions.navigate_tree(args, summarize=True, custom_instructions="be short")
        return f"cancelled: {result.reason}" if result.cancelled else "moved"

    async def fork(args):
        result = await tau.sessions.fork(args)
        return "cancelled" if result.cancelled else "forked"

    async def handoff(args):
        async def setup(log):
            log.append_custom_message("handoff", "context from before", display=True)

        def with_session(api):
            heard.append(("with_session", api is tau, [type(m).__name__ for m in api.session.messages]))

        result = await tau.sessions.new(setup=setup, with_session=with_session)
        return "cancelled" if result.cancelled else "handed off"

    async def summarise_own(args):
        result = await tau.sessions.navigate_tree(
            args, summarize=True, custom_instructions="JUST ONE LINE", replace_instructions=True
        )
        return f"cancelled: {result.reason}" if result.cancelled else "moved"

    tau.register_command("x-summarise", summarise)
    tau.register_command("x-summarise-own", summarise_own)
    tau.register_command("x-fork", fork)
    tau.register_command("x-handoff", handoff)
"""


def _rig(tmp_path: Path, *replies: str) -> tuple[Rig, SessionControl, list[tuple[str, str | None]], object]:
    path = write_extension(tmp_path / "ext", "answers", ANSWERS)
    rig = make_rig(tmp_path, fake(*replies), [path])
    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    attach_control(control)
    told: list[tuple[str, str | None]] = []
    control.outside_change.append(lambda change: told.append((change.kind, change.editor_text)))
    module = rig.host.extensions["answers"].module
    assert module is not None
    return rig, control, told, module


def _answer(events: list[SessionEvent]) -> str | None:
    return next(e.text for e in events if isinstance(e, InputHandledEvent))


def _user_entries(rig: Rig) -> list[str]:
    return [
        e.id
        for e in rig.session.log.entries
        if isinstance(e, MessageEntry) and isinstance(e.message, UserMessage)
    ]


async def test_a_handlers_summary_is_recorded_without_asking_the_model(tmp_path: Path) -> None:
    rig, _, told, module = _rig(tmp_path, "one", "two")
    await rig.run("first")
    await rig.run("second")
    asked = len(rig.provider.contexts)
    target = rig.session.log.tree.get(_user_entries(rig)[1])
    assert target is not None
    module.mode["tree"] = "summary"
    assert _answer(await rig.run(f"/x-summarise {target.parent_id}")) == "moved"
    assert len(rig.provider.contexts) == asked  # the model was not asked for a summary
    entry = next(e for e in rig.session.log.entries if isinstance(e, BranchSummaryEntry))
    assert entry.summary == "written by hand" and entry.parent_id == target.parent_id
    assert entry.from_hook is True and entry.details == {"by": "answers"}
    assert rig.session.log.labels[entry.id] == "mine"  # the handler's label wins over none
    assert isinstance(rig.session.messages[-1], BranchSummaryMessage)
    before = next(e for point, e in module.heard if point == "before_tree")
    assert before.user_wants_summary and before.custom_instructions == "be short"
    assert [type(e).__name__ for e in before.entries_to_summarize] == ["MessageEntry", "MessageEntry"]
    after = next(e for point, e in module.heard if point == "tree")
    assert after.summary_entry is entry and after.from_extension is True
    assert told == [("tree", None)]


async def test_an_async_refusal_stops_the_summarising_move_and_the_model_is_not_asked(tmp_path: Path) -> None:
    rig, control, told, module = _rig(tmp_path, "one", "two")
    await rig.run("first")
    await rig.run("second")
    leaf, asked = rig.session.log.leaf_id, len(rig.provider.contexts)
    module.mode["tree"] = "refuse"
    first = _user_entries(rig)[0]
    assert _answer(await rig.run(f"/x-summarise {first}")) == "cancelled: not now"
    with pytest.raises(ChangeRefusedError, match="not now"):
        await control.summarize_move(first)
    assert rig.session.log.leaf_id == leaf and len(rig.provider.contexts) == asked and told == []
    assert "tree" not in [point for point, _ in module.heard]


async def test_a_handler_may_replace_the_summarisers_instructions(tmp_path: Path) -> None:
    rig, control, _, module = _rig(tmp_path, "one", "two", "the model's summary")
    await rig.run("first")
    await rig.run("second")
    module.mode["tree"] = "instructions"
    target = rig.session.log.tree.get(_user_entries(rig)[1])
    assert target is not None
    entry = await control.summarize_move(target.parent_id, custom_instructions="be short", label="lbl")
    assert isinstance(entry, BranchSummaryEntry) and entry.summary.startswith("the model's summary")
    assert not entry.from_hook and rig.session.log.labels[entry.id] == "lbl"
    request = str(rig.provider.contexts[-1].messages)
    assert "ONLY LIST FILES" in request and "be short" not in request
    assert "## Goal" in request  # added to Tau's own instructions, as replace_instructions is unset
    after = next(e for point, e in module.heard if point == "tree")
    assert after.summary_entry is entry and after.from_extension is False


async def test_a_handler_may_make_its_instructions_the_whole_prompt(tmp_path: Path) -> None:
    rig, control, _, module = _rig(tmp_path, "one", "two", "the model's summary")
    await rig.run("first")
    await rig.run("second")
    module.mode["tree"] = "replace"
    target = rig.session.log.tree.get(_user_entries(rig)[1])
    assert target is not None
    entry = await control.summarize_move(target.parent_id, custom_instructions="be short")
    assert isinstance(entry, BranchSummaryEntry)
    request = str(rig.provider.contexts[-1].messages)
    assert "ONLY LIST FILES" in request and "Additional focus" not in request
    assert "## Goal" not in request  # Tau's own branch instructions are not sent


async def test_navigate_tree_may_replace_the_instructions_and_handlers_hear_it(tmp_path: Path) -> None:
    rig, _, _, module = _rig(tmp_path, "one", "two", "the model's summary", "three")
    await rig.run("first")
    await rig.run("second")
    target = rig.session.log.tree.get(_user_entries(rig)[1])
    assert target is not None and target.parent_id is not None
    assert _answer(await rig.run(f"/x-summarise-own {target.parent_id}")) == "moved"
    before = next(e for point, e in module.heard if point == "before_tree")
    assert before.custom_instructions == "JUST ONE LINE" and before.replace_instructions is True
    request = str(rig.provider.contexts[-1].messages)
    assert "JUST ONE LINE" in request and "## Goal" not in request and "Additional focus" not in request


async def test_a_fork_decision_keeps_the_editor_as_it_is(tmp_path: Path) -> None:
    rig, control, told, module = _rig(tmp_path, "one", "two")
    await rig.run("the question")
    await rig.run("the next one")
    first, second = _user_entries(rig)
    module.mode["fork"] = "keep"
    assert await control.asking(lambda: control.fork(second)) == ""  # forked, no text handed back
    assert [type(m).__name__ for m in rig.session.messages] == ["UserMessage", "AssistantMessage"]
    assert _answer(await rig.run(f"/x-fork {first}")) == "forked"
    assert told == [("fork", None)] and rig.session.messages == []


async def test_setup_fills_the_new_session_and_with_session_runs_once_it_is_shown(tmp_path: Path) -> None:
    rig, _, told, module = _rig(tmp_path, "one")
    await rig.run("hello")
    first = rig.session.session_file
    assert _answer(await rig.run("/x-handoff")) == "handed off"
    assert rig.session.session_file != first and told == [("new", None)]
    assert [type(m) for m in rig.session.messages] == [CustomMessage]  # setup's entry is the context
    assert module.heard[-1] == ("with_session", True, ["CustomMessage"])


async def test_rewinds_summary_asks_session_before_tree_as_the_tree_does(tmp_path: Path) -> None:
    """``/rewind`` → "summarise from here" is a move in the tree with a summary: a handler's
    refusal stops it and a handler's summary is the one recorded."""
    from tau_coding.checkpoints.store import CheckpointStore
    from tau_coding.session.checkpointing import SessionCheckpoints
    from tests.coding.checkpoints.tree_files import git

    git(tmp_path, "init", "-q")
    rig, control, _, module = _rig(tmp_path, "one", "two")
    rig.session.checkpoints = SessionCheckpoints(CheckpointStore(tmp_path, tmp_path / "checkpoints"))
    await rig.run("first")
    await rig.run("second")
    point = control.list_checkpoints()[0]
    leaf, asked = rig.session.log.leaf_id, len(rig.provider.contexts)
    module.mode["tree"] = "refuse"
    with pytest.raises(ChangeRefusedError, match="not now"):
        await control.restore_checkpoint(point.record.checkpoint_id, "summarize")
    assert rig.session.log.leaf_id == leaf and len(rig.provider.contexts) == asked
    module.mode["tree"] = "summary"
    outcome = await control.restore_checkpoint(point.record.checkpoint_id, "summarize")
    entry = next(e for e in reversed(rig.session.log.entries) if isinstance(e, BranchSummaryEntry))
    assert entry.summary == "written by hand" and entry.from_hook
    assert outcome.editor_text == "first" and len(rig.provider.contexts) == asked
