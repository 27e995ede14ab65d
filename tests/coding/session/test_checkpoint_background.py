"""A prompt's checkpoint is taken while the model is asked: the request does not wait for it,
a tool that may change files does, and the session records it (after the prompt's user message,
naming it) before the run settles; a run torn down first leaves a session without it."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from tau_agent.messages import UserMessage
from tau_agent.session.entries import CustomEntry, MessageEntry
from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import call, reply
from tau_ai.model import Model
from tau_coding.checkpoints.store import Checkpoint, CheckpointStore
from tau_coding.session.checkpoint_entries import CHECKPOINT_ENTRY, checkpoint_records
from tau_coding.session.checkpointing import SessionCheckpoints
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.session.store.manager import SessionManager
from tau_coding.tools.builtin import create_coding_tools

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")


class HeldStore(CheckpointStore):
    """A real store whose snapshots start only once the test lets them (``release``)."""

    def __init__(self, project: Path, data: Path) -> None:
        super().__init__(project, data)
        self.release = threading.Event()
        self.started = threading.Event()

    def take(self, *, session: str = "", kind: str = "prompt") -> Checkpoint:
        self.started.set()
        assert self.release.wait(10), "the test never released the checkpoint"
        return super().take(session=session, kind=kind)


def _session(tmp_path: Path, provider: FakeProvider) -> tuple[CodingSession, HeldStore, SessionManager]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text("x = 1\n")
    manager = SessionManager(tmp_path / "sessions", str(project))
    session = CodingSession(
        log=manager.new(),
        model=MODEL,
        provider_factory=lambda model: provider,
        tools=list(create_coding_tools(project).values()),
        system_prompt="",
        cwd=project,
    )
    store = HeldStore(project, tmp_path / "checkpoints")
    session.checkpoints = SessionCheckpoints(store)
    return session, store, manager


async def _until(condition: object, what: str) -> None:
    for _ in range(500):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def _entry_ids(session: CodingSession) -> list[tuple[str, str]]:
    out = []
    for entry in session.log.entries:
        if isinstance(entry, CustomEntry):
            out.append(("checkpoint", entry.id))
        elif isinstance(entry, MessageEntry):
            out.append((entry.message.role, entry.id))
    return out


async def test_a_write_waits_for_the_checkpoint_but_the_model_request_does_not(tmp_path: Path) -> None:
    provider = FakeProvider([reply(call("write", {"path": "new.py", "content": "n\n"})), "Done."])
    session, store, _ = _session(tmp_path, provider)
    run = asyncio.ensure_future(_drain(session, "write it"))
    await _until(lambda: provider.calls == 1 and store.started.is_set(), "the first request")
    await asyncio.sleep(0.1)
    assert not (session.cwd / "new.py").exists()  # the write waits for the checkpoint
    assert provider.calls == 1
    store.release.set()
    await run
    assert (session.cwd / "new.py").read_text() == "n\n"
    kinds = [kind for kind, _ in _entry_ids(session)]
    assert kinds == ["user", "assistant", "checkpoint", "toolResult", "assistant"]
    (record,) = checkpoint_records(session.log.path(), session.log.entries)
    assert record.prompt == "write it"
    assert session.checkpoints is not None
    session.checkpoints.restore_code(session.log, record.checkpoint_id, "s")
    assert not (session.cwd / "new.py").exists()  # taken before the write


async def test_a_run_that_only_reads_records_its_checkpoint_before_it_settles(tmp_path: Path) -> None:
    provider = FakeProvider([reply(call("read", {"path": "app.py"})), "x is 1."])
    session, store, manager = _session(tmp_path, provider)
    run = asyncio.ensure_future(_drain(session, "what is x?"))
    await _until(lambda: provider.calls == 2, "both requests, the read between them")
    assert not run.done()  # the run settles only once its checkpoint is recorded
    store.release.set()
    events = await run
    assert events[-1] == "agent_settled"
    user = next(e for e in session.log.entries if isinstance(e, MessageEntry))
    entry = next(e for e in session.log.entries if isinstance(e, CustomEntry))
    assert entry.custom_type == CHECKPOINT_ENTRY and entry.data["message"] == user.id
    path = session.session_file
    assert path is not None
    reopened = manager.open(path, read_only=True)  # the file as another reader finds it
    (record,) = checkpoint_records(reopened.path(), reopened.entries)
    assert record.prompt == "what is x?" and record.leaf_id == user.parent_id


async def test_a_rewind_of_the_conversation_goes_back_to_before_the_prompt(tmp_path: Path) -> None:
    provider = FakeProvider(["One.", "Two."])
    session, store, manager = _session(tmp_path, provider)
    store.release.set()
    await _drain(session, "first")
    await _drain(session, "second")
    control = SessionControl(session, manager)
    second = control.list_checkpoints()[1]
    outcome = await control.restore_checkpoint(second.record.checkpoint_id, "conversation")
    assert outcome.editor_text == "second"
    assert [m.content for m in session.messages if isinstance(m, UserMessage)] == ["first"]


async def test_a_run_torn_down_before_its_checkpoint_leaves_a_session_without_it(tmp_path: Path) -> None:
    provider = FakeProvider(["Hello."])
    session, store, _ = _session(tmp_path, provider)
    events = session.prompt("hi")
    async for event in events:
        if event.type == "message_end":
            break
    await events.aclose()  # the consumer went away (a crash in a frontend, a closed pipe)
    store.release.set()
    assert not [e for e in session.log.entries if isinstance(e, CustomEntry)]
    assert [m.content for m in session.log.state().messages] == ["hi"]
    await asyncio.sleep(0.2)  # the thread finishes: nothing is written after the run
    assert not [e for e in session.log.entries if isinstance(e, CustomEntry)]
    await _drain(session, "again")  # the next prompt takes and records its own
    assert len([e for e in session.log.entries if isinstance(e, CustomEntry)]) == 1


async def _drain(session: CodingSession, text: str) -> list[str]:
    return [event.type async for event in session.prompt(text)]
