"""before_agent_start (system prompt, injected message) and session_before_compact decisions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_agent.messages import CustomMessage
from tau_agent.session.entries import CompactionEntry, CustomMessageEntry
from tau_coding.session.compaction.errors import CompactionCancelledError
from tests.coding.extensions.helpers import fake, make_rig, write_extension

AGENT_START = """
from tau_agent.messages import CustomMessage
from tau_coding.extensions import AgentStartPatch

def activate(tau):
    @tau.on("before_agent_start")
    def first(event):
        return AgentStartPatch(system_prompt=event.system_prompt + " FIRST")

    @tau.on("before_agent_start")
    def second(event):
        if "remind" in event.prompt:
            return AgentStartPatch(
                system_prompt=event.system_prompt + " SECOND",
                message=CustomMessage("reminder", "use tabs", True, None),
            )
"""


async def test_before_agent_start_chains_the_system_prompt_for_one_prompt_only(tmp_path: Path) -> None:
    ext = write_extension(tmp_path / "ext", "start", AGENT_START)
    provider = fake("one", "two")
    rig = make_rig(tmp_path, provider, [ext])
    base = rig.session.harness.system_prompt
    await rig.run("remind me")
    assert provider.contexts[0].system_prompt == base + " FIRST SECOND"
    assert rig.session.harness.system_prompt == base  # restored once the prompt settled
    await rig.run("plain")
    assert provider.contexts[1].system_prompt == base + " FIRST"


async def test_before_agent_start_message_reaches_the_model_and_the_session_file(tmp_path: Path) -> None:
    ext = write_extension(tmp_path / "ext", "start", AGENT_START)
    provider = fake("ok")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("remind me")
    sent = provider.contexts[0].messages
    assert any("use tabs" in str(getattr(m, "content", "")) for m in sent)
    assert any(isinstance(m, CustomMessage) and m.custom_type == "reminder" for m in rig.session.messages)
    entries = [e for e in rig.session.log.tree if isinstance(e, CustomMessageEntry)]
    assert [e.custom_type for e in entries] == ["reminder"]


async def test_a_failing_before_agent_start_handler_is_reported_and_the_prompt_runs(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "broken",
        """
        def activate(tau):
            tau.on("before_agent_start", lambda event: 1 / 0)
        """,
    )
    provider = fake("fine")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("hi")
    assert provider.calls == 1 and rig.session.messages[-1].role == "assistant"
    assert any("before_agent_start handler failed" in w for w in rig.warnings)


COMPACT = """
from tau_coding.extensions import CompactDecision

def activate(tau):
    @tau.on("session_before_compact")
    def decide(event):
        if event.custom_instructions == "stop":
            return CompactDecision(cancel=True)
        if event.custom_instructions == "mine":
            return CompactDecision(summary="SUMMARY BY EXTENSION")
        return None
"""


async def test_an_extension_summary_is_recorded_without_asking_the_model(tmp_path: Path) -> None:
    ext = write_extension(tmp_path / "ext", "compact", COMPACT)
    provider = fake("first answer", "second answer")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("one")
    await rig.run("two")
    result = await rig.session.compact("mine")
    assert result.summary == "SUMMARY BY EXTENSION"
    assert provider.calls == 2  # no summary request went to the model
    compactions = [e for e in rig.session.log.tree if isinstance(e, CompactionEntry)]
    assert [(c.summary, c.from_hook) for c in compactions] == [("SUMMARY BY EXTENSION", True)]
    assert "SUMMARY BY EXTENSION" in str(rig.session.messages[0])


async def test_an_extension_can_cancel_a_compaction_and_nothing_is_written(tmp_path: Path) -> None:
    ext = write_extension(tmp_path / "ext", "compact", COMPACT)
    rig = make_rig(tmp_path, fake("first answer", "second answer"), [ext])
    await rig.run("one")
    await rig.run("two")
    before = len(rig.session.log.tree)
    with pytest.raises(CompactionCancelledError, match="extension compact"):
        await rig.session.compact("stop")
    assert len(rig.session.log.tree) == before
    assert not any(isinstance(e, CompactionEntry) for e in rig.session.log.tree)
