"""``branch_notes.py`` and ``handoff.py``, and an async refusal, through the SDK: the extensions
are the user's (``$TAU_HOME/extensions``), loaded by ``create_session`` as ``tau`` loads them."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tau_agent.messages import CustomMessage
from tau_agent.provider import ModelProvider
from tau_agent.session.entries import BranchSummaryEntry
from tau_agent.testing import FakeProvider
from tau_ai.model import Model
from tau_coding.sdk import create_session
from tau_coding.session.control import ChangeRefusedError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"
MODEL = "anthropic/claude-sonnet-4-5"

REFUSE_ASYNC = """
import asyncio
from tau_coding.extensions import Cancel

def activate(tau):
    async def before_switch(event):
        await asyncio.sleep(0)
        return Cancel("stay here") if event.reason == "new" else None

    tau.on("session_before_switch", before_switch)
"""


def _env(tmp_path: Path, *examples: Path, extra: str | None = None) -> dict[str, str]:
    home = tmp_path / "tau"
    (home / "extensions").mkdir(parents=True)
    for example in examples:
        shutil.copy(example, home / "extensions" / example.name)
    if extra is not None:
        (home / "extensions" / "extra.py").write_text(extra)
    return {"HOME": str(tmp_path / "home"), "TAU_HOME": str(home), "ANTHROPIC_API_KEY": "k"}


def _factory(provider: FakeProvider) -> Any:
    def make(model: Model, api_key: str | None) -> ModelProvider:
        return provider

    return make


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


async def test_branch_notes_writes_the_summary_and_the_model_is_not_asked(tmp_path: Path) -> None:
    provider = FakeProvider(["one", "two"])
    env = _env(tmp_path, EXAMPLES / "branch_notes.py")
    with create_session(
        _project(tmp_path), model=MODEL, environ=env, provider_factory=_factory(provider)
    ) as tau:
        await tau.prompt("first question")
        await tau.prompt("second question")
        asked = len(provider.contexts)
        second = tau.fork_messages()[1].entry_id
        before_second = tau.session.log.tree.get(second)
        assert before_second is not None
        await tau.navigate(before_second.parent_id, summarize=True, label="notes")
        assert len(provider.contexts) == asked
        entry = next(e for e in tau.session.log.entries if isinstance(e, BranchSummaryEntry))
        assert entry.from_hook is True and tau.session.log.labels[entry.id] == "notes"
        assert entry.summary.splitlines()[1:] == ["- asked: second question"]
        assert entry.details == {"asked": ["second question"], "files": []}
        await tau.navigate(tau.fork_messages()[0].entry_id)  # no summary asked: a plain move
        assert sum(isinstance(e, BranchSummaryEntry) for e in tau.session.log.entries) == 1


async def test_handoff_starts_a_new_session_holding_its_note(tmp_path: Path) -> None:
    provider = FakeProvider(["one", "two"])
    env = _env(tmp_path, EXAMPLES / "handoff.py")
    with create_session(
        _project(tmp_path), model=MODEL, environ=env, provider_factory=_factory(provider)
    ) as tau:
        await tau.prompt("fix the parser")
        first = tau.session_file
        reply = await tau.prompt("/handoff write the tests")
        assert reply is None and tau.session_file != first
        assert [type(m) for m in tau.messages] == [CustomMessage]
        note = tau.messages[0]
        assert isinstance(note, CustomMessage) and note.custom_type == "handoff"
        assert "- earlier request: fix the parser" in str(note.content)
        assert "Task now: write the tests" in str(note.content)
        await tau.prompt("go on")
        assert "fix the parser" in str(provider.contexts[-1].messages)  # the model reads the note


async def test_the_sdk_counts_an_async_handlers_refusal(tmp_path: Path) -> None:
    provider = FakeProvider(["one"])
    env = _env(tmp_path, extra=REFUSE_ASYNC)
    with create_session(
        _project(tmp_path), model=MODEL, environ=env, provider_factory=_factory(provider)
    ) as tau:
        await tau.prompt("hello")
        first = tau.session_file
        with pytest.raises(ChangeRefusedError, match="stay here"):
            await tau.new_session()
        assert tau.session_file == first and len(tau.messages) == 2
