"""When a CodingSession writes model_change and thinking_level_change entries: only for real changes.

Setting what is in force writes nothing; moving in the tree writes nothing (as in Pi), and the
settings in force stay; the next prompt on the new branch records what its path lacks, so a
resume of that branch restores what was actually used.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from tau_agent.session.entries import (
    CustomEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    ThinkingLevelChangeEntry,
    is_leaf_marker,
)
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.testing import FakeProvider
from tau_ai.model import Model
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.session.events import SessionEvent
from tau_coding.session.settings_choice import SessionSettings
from tau_coding.session.store.manager import SessionManager

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1", reasoning=True)
OTHER = Model("other-model", "fake", "fake", "http://127.0.0.1", reasoning=True)


def _control(tmp_path: Path, replies: list[str]) -> SessionControl:
    """Each model gets its own scripted provider, whose replies name that model."""
    manager = SessionManager(tmp_path / "sessions", str(tmp_path))
    session = CodingSession(
        log=manager.new(),
        model=MODEL,
        provider_factory=lambda model: FakeProvider(replies, model=model.id),
        tools=[],
        system_prompt="Be brief.",
        cwd=tmp_path,
    )
    return SessionControl(session, manager, models=lambda: [MODEL, OTHER])


async def _drain(events: AsyncIterator[SessionEvent]) -> None:
    async for _ in events:
        pass


def _kinds(entries: object) -> list[type[SessionEntry]]:
    assert isinstance(entries, list | tuple)
    return [type(e) for e in entries]


async def test_setting_what_is_in_force_writes_nothing(tmp_path: Path) -> None:
    control = _control(tmp_path, ["Hi."])
    session = control.session
    assert _kinds(list(session.log.entries)) == [ModelChangeEntry]  # a new session: "off" is the default
    control.set_model("fake", "fake-model")
    control.set_thinking_level("off")
    await _drain(session.prompt("hello"))
    session.set_model(MODEL)
    session.set_thinking_level("off")
    assert _kinds(list(session.log.entries)) == [ModelChangeEntry, MessageEntry, MessageEntry]
    control.set_thinking_level("high")
    control.set_thinking_level("high")
    assert _kinds(list(session.log.entries))[3:] == [ThinkingLevelChangeEntry]


async def test_tree_moves_write_nothing_and_the_next_prompt_records_what_the_branch_lacks(
    tmp_path: Path,
) -> None:
    control = _control(tmp_path, ["One.", "Two.", "Three."])
    session = control.session
    await _drain(session.prompt("first"))
    first_reply = session.log.leaf_id
    control.set_thinking_level("high")
    await _drain(session.prompt("second"))
    before = len(session.log.entries)

    control.navigate(first_reply)
    moved = list(session.log.entries[before:])
    assert len(moved) == 1 and isinstance(moved[0], CustomEntry) and is_leaf_marker(moved[0])
    assert (session.model, session.thinking_level) == (MODEL, "high")
    assert session.log.state().thinking_level == "off"  # the branch's own record

    await _drain(session.prompt("third"))
    assert _kinds(list(session.log.entries[before + 1 :])) == [
        ThinkingLevelChangeEntry,
        MessageEntry,
        MessageEntry,
    ]
    path = session.session_file
    assert path is not None
    session.close()
    reopened = SessionLog(JsonlSessionStorage.open(path))
    assert reopened.state().thinking_level == "high"
    reopened.close()


async def test_switching_restores_what_the_other_session_records(tmp_path: Path) -> None:
    control = _control(tmp_path, ["One.", "Two."])
    session = control.session
    session.restore_settings = lambda recorded, current: SessionSettings(
        OTHER if recorded.model and recorded.model.model_id == "other-model" else current.model,
        "medium" if recorded.thinking_level == "medium" else current.thinking_level,
    )
    control.set_model("fake", "other-model")
    control.set_thinking_level("medium")
    await _drain(session.prompt("first"))
    old = session.session_file
    assert old is not None
    control.new_session()
    control.set_model("fake", "fake-model")
    control.set_thinking_level("low")
    assert (session.model, session.thinking_level) == (MODEL, "low")
    size = old.stat().st_size
    control.switch_session(old)
    assert (session.model, session.thinking_level) == (OTHER, "medium")
    assert old.stat().st_size == size
