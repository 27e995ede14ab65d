"""HarnessSessionAdapter: the SessionPort over a bare harness."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tau_agent.harness import AgentHarness
from tau_agent.testing import FakeProvider
from tau_coding.tui.port import SessionPort
from tests.coding.tui.harness_port import HarnessSessionAdapter


def test_adapter_satisfies_the_port_and_reports_git_branch(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "feature-x"], cwd=tmp_path, check=True)
    port = HarnessSessionAdapter(AgentHarness(FakeProvider([], provider="p", model="m")), cwd=tmp_path)
    assert isinstance(port, SessionPort)
    info = port.info()
    assert (info.cwd, info.model_label, info.git_branch) == (str(tmp_path), "p/m", "feature-x")


def test_queues_come_back_as_text_oldest_first() -> None:
    harness = AgentHarness(FakeProvider([]))
    port = HarnessSessionAdapter(harness, cwd=".")
    port.steer("a")
    port.follow_up("b")
    port.steer("c")
    queued = port.clear_queues()
    assert (queued.steering, queued.follow_up) == (["a", "c"], ["b"])
    assert harness.pending_count == 0


def test_thinking_level_is_validated_and_reaches_the_stream_options() -> None:
    harness = AgentHarness(FakeProvider([]))
    port = HarnessSessionAdapter(harness, cwd=".")
    port.set_thinking_level("high")
    assert harness.options.thinking_level == "high" and port.info().thinking_level == "high"
    with pytest.raises(ValueError, match="unknown thinking level"):
        port.set_thinking_level("extreme")
    assert HarnessSessionAdapter(harness, cwd=".", reasoning=False).thinking_levels() == ()


def test_set_model_switches_provider_and_refuses_unknown_labels() -> None:
    a, b = FakeProvider([], model="a"), FakeProvider([], model="b")
    harness = AgentHarness(a)
    port = HarnessSessionAdapter(harness, cwd=".", providers={"fake/a": a, "fake/b": b})
    assert port.set_model("fake/b").message == "Model: fake/b" and harness.provider is b
    refused = port.set_model("nope/x")
    assert refused.is_error and harness.provider is b


async def test_bash_output_joins_the_record_with_exit_code(tmp_path: Path) -> None:
    harness = AgentHarness(FakeProvider([]))
    port = HarnessSessionAdapter(harness, cwd=tmp_path)
    message = await port.run_bash("echo out; echo err >&2; exit 3", exclude_from_context=True)
    assert message.output == "out\nerr\n" and message.exit_code == 3 and message.exclude_from_context
    assert harness.messages == [message]
    assert not (await port.new_session()).is_error and harness.messages == []
    assert await port.run_command("anything", "") is None and port.resume_hint() is None
