"""The SDK's checkpoint methods: list, preview and restore, in-process on a fake provider."""

from __future__ import annotations

from pathlib import Path

from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import call, reply
from tau_coding.sdk import create_session
from tests.coding.sdk.test_sdk import MODEL, _env, _factory, _project


async def test_list_preview_and_restore_a_checkpoint(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "notes.md").write_text("draft\n")
    provider = FakeProvider(
        [reply(call("bash", {"command": "echo final > notes.md && touch extra"})), "Done."]
    )
    with create_session(
        project, model=MODEL, environ=_env(tmp_path), provider_factory=_factory(provider)
    ) as tau:
        await tau.prompt("finish the notes")
        (point,) = tau.list_checkpoints()
        assert point.record.prompt == "finish the notes"
        assert {c.path for c in tau.preview_checkpoint(point.record.checkpoint_id)} == {"notes.md", "extra"}
        outcome = await tau.restore_checkpoint(point.record.checkpoint_id, "both")
        assert (project / "notes.md").read_text() == "draft\n" and not (project / "extra").exists()
        assert outcome.editor_text == "finish the notes" and tau.messages == []


async def test_checkpoints_false_takes_none(tmp_path: Path) -> None:
    provider = FakeProvider(["ok"])
    with create_session(
        _project(tmp_path),
        model=MODEL,
        environ=_env(tmp_path),
        provider_factory=_factory(provider),
        checkpoints=False,
    ) as tau:
        await tau.prompt("hi")
        assert tau.session.checkpoints is None
    assert not (tmp_path / "tau" / "checkpoints").exists()
