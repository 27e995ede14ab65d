"""The examples of the newer API (compaction, before_agent_start, input, exec, active tools,
event bus), loaded from examples/extensions/ and exercised in a real session."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tau_agent.messages import CustomMessage
from tau_agent.testing.fake_provider import call, reply
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.session.compaction.errors import CompactionCancelledError
from tests.coding.extensions.helpers import fake, make_rig, write_extension

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


async def test_custom_compaction_lists_the_user_requests_as_the_summary(tmp_path: Path) -> None:
    provider = fake("done one", "done two")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "custom_compaction.py"])
    await rig.run("rename the module")
    await rig.run("add a test")
    result = await rig.session.compact()
    assert result.summary == "The user asked, in order:\n1. rename the module\n2. add a test"
    assert provider.calls == 2
    with pytest.raises(CompactionCancelledError):
        await rig.session.compact("keep")


async def test_prompt_addon_adds_the_rule_and_a_reminder_for_tests(tmp_path: Path) -> None:
    provider = fake("ok", "ok")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "prompt_addon.py"])
    await rig.run("fix the tests")
    assert provider.contexts[0].system_prompt.endswith("House rule: answer in British English.")
    reminders = [m for m in rig.session.messages if isinstance(m, CustomMessage)]
    assert [m.custom_type for m in reminders] == ["reminder"]
    await rig.run("hello")
    assert len([m for m in rig.session.messages if isinstance(m, CustomMessage)]) == 1


async def test_quick_question_rewrites_only_q_prompts(tmp_path: Path) -> None:
    provider = fake("a", "b")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "quick_question.py"])
    await rig.run("?q what is a monad")
    await rig.run("what is a monad")
    first, second = (str(c.messages[-1].content) for c in provider.contexts)
    assert "at most three sentences" in first and "what is a monad" in first
    assert "three sentences" not in second


async def test_git_checkpoint_commits_each_successful_write(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    provider = fake(
        reply(call("write", {"path": "a.txt", "content": "one\n"}, id="w1")),
        reply(call("write", {"path": "b.txt", "content": "two\n"}, id="w2")),
        "written",
    )
    rig = make_rig(tmp_path, provider, [EXAMPLES / "git_checkpoint.py"])
    await rig.run("write two files")
    log = subprocess.run(
        ["git", "-C", str(tmp_path), "log", "--format=%s"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert log == ["tau: write b.txt", "tau: write a.txt"]
    assert rig.ui.status["checkpoint"] == "checkpoint: write b.txt"


async def test_read_only_mode_narrows_the_tools_and_restores_them(tmp_path: Path) -> None:
    provider = fake("ok")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "read_only_mode.py"])
    events = await rig.run("/readonly on")
    assert [getattr(e, "text", None) for e in events if e.type == "input_handled"] == ["tools: read"]
    await rig.run("look around")
    assert [t.name for t in provider.contexts[0].tools] == ["read"]
    await rig.run("/readonly off")
    assert [t.name for t in rig.session.harness.tools] == ["read", "write", "edit", "bash"]


async def test_build_events_announces_each_prompt_to_other_extensions(tmp_path: Path) -> None:
    listener = write_extension(
        tmp_path / "ext",
        "listener",
        """
        heard = []
        def activate(tau):
            tau.events.on("tau.done", heard.append)
            tau.register_command("heard", lambda args: repr(heard))
        """,
    )
    rig = make_rig(tmp_path, fake("one"), [EXAMPLES / "build_events.py", listener])
    await rig.run("hello")
    events = await rig.run("/heard")
    assert [getattr(e, "text", None) for e in events if e.type == "input_handled"] == ["[{'prompts': 1}]"]
    ExtensionAPI(rig.host, "listener").events.emit("notes", "lunch at noon")
    assert ("info", "note: lunch at noon") in rig.ui.notices
