"""The SDK: a coding session created and driven in-process, on a fake provider."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.harness import AgentBusyError
from tau_agent.provider import ModelProvider
from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import call, reply, text
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_ai.model import Model
from tau_coding.sdk import ConfigurationError, create_session
from tau_coding.session.events import SessionEvent

MODEL = "anthropic/claude-sonnet-4-5"


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "TAU_HOME": str(tmp_path / "tau"), "ANTHROPIC_API_KEY": "k"}


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    return root


def _factory(provider: FakeProvider) -> Any:
    def make(model: Model, api_key: str | None) -> ModelProvider:
        return provider

    return make


async def _shout(
    call_id: str, args: dict[str, Any], signal: CancellationToken, update: ToolUpdate
) -> AgentToolResult:
    return AgentToolResult.text(str(args["text"]).upper())


SHOUT = AgentTool(
    "shout",
    "Upper-case a text.",
    {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    _shout,
)


async def test_a_prompt_with_a_custom_tool_runs_and_is_recorded(tmp_path: Path) -> None:
    provider = FakeProvider([reply(call("shout", {"text": "hey"})), "It says HEY."])
    with create_session(
        _project(tmp_path),
        model=MODEL,
        custom_tools=[SHOUT],
        environ=_env(tmp_path),
        provider_factory=_factory(provider),
    ) as tau:
        heard: list[SessionEvent] = []
        unsubscribe = tau.subscribe(heard.append)
        answer = await tau.prompt("shout hey")
        assert answer is not None and answer.text == "It says HEY."
        assert [t.name for t in provider.contexts[0].tools][-1] == "shout"
        assert "shout" in provider.contexts[0].system_prompt
        assert "HEY" in json.dumps([str(m) for m in provider.contexts[1].messages])
        assert heard[0].type == "agent_start" and heard[-1].type == "agent_settled"
        unsubscribe()
        assert tau.stats()["toolCalls"] == 1 and tau.last_assistant_text() == "It says HEY."
        path = tau.session_file
    assert path is not None and path.is_file()


async def test_memory_sessions_write_nothing_and_tools_can_be_chosen(tmp_path: Path) -> None:
    provider = FakeProvider(["ok"])
    with create_session(
        _project(tmp_path),
        model=MODEL,
        session="memory",
        tools=["read"],
        environ=_env(tmp_path),
        provider_factory=_factory(provider),
    ) as tau:
        await tau.prompt("hi")
        assert tau.session_file is None
        assert [t.name for t in provider.contexts[0].tools] == ["read"]
    assert not (tmp_path / "tau" / "sessions").exists()
    with pytest.raises(ConfigurationError, match="name of a built-in tool"):
        create_session(
            _project(tmp_path),
            model=MODEL,
            custom_tools=[SHOUT.__class__("read", "", {}, _shout)],
            environ=_env(tmp_path),
        )


async def test_steer_and_abort_act_on_the_running_prompt(tmp_path: Path) -> None:
    provider = FakeProvider([reply(text("a long answer", chunk_size=1), delay=0.01), "steered", "next"])
    with create_session(
        _project(tmp_path), model=MODEL, environ=_env(tmp_path), provider_factory=_factory(provider)
    ) as tau:
        events = tau.stream("start")
        first = await anext(events)
        assert first.type == "agent_start" and tau.is_running
        tau.steer("change of plan")
        with pytest.raises(AgentBusyError):
            await tau.new_session()
        tau.abort()
        rest = [e async for e in events]
        assert rest[-1].type == "agent_settled"
        assert tau.messages[1].stop_reason == "aborted"  # type: ignore[union-attr]
        assert (await tau.prompt("again")) is not None


async def test_fork_navigate_switch_and_reload(tmp_path: Path) -> None:
    provider = FakeProvider(["one", "two", "three"])
    project = _project(tmp_path)
    with create_session(
        project, model=MODEL, environ=_env(tmp_path), provider_factory=_factory(provider)
    ) as tau:
        await tau.prompt("first")
        await tau.prompt("second")
        original = tau.session_file
        second = tau.fork_messages()[1]
        assert await tau.fork(second.entry_id) == "second"
        assert [m.role for m in tau.messages] == ["user", "assistant"] and tau.session_file != original
        assert original is not None
        await tau.switch_session(original)
        assert len(tau.messages) == 4
        await tau.navigate(tau.fork_messages()[0].entry_id)
        assert [m.role for m in tau.messages] == ["user"]
        heard: list[str] = []
        tau.subscribe(lambda e: heard.append(e.type))
        (project / ".tau" / "prompts").mkdir(parents=True)
        (project / ".tau" / "prompts" / "hello.md").write_text("Say hello to $1\n")
        tau.reload()
        assert tau.messages and tau.messages[0].role == "user"  # the conversation carried over
        await tau.prompt("/hello Ada")
        assert "Say hello to Ada" in json.dumps([str(m) for m in provider.contexts[-1].messages])
        assert "agent_settled" in heard  # listeners follow the reloaded session
        assert len(tau.list_sessions()) == 2
        html = tau.export_html(tmp_path / "s.html")
        assert "Say hello to Ada" in html.read_text()


async def test_models_and_thinking_levels(tmp_path: Path) -> None:
    with create_session(
        _project(tmp_path),
        model=MODEL,
        environ=_env(tmp_path),
        provider_factory=_factory(FakeProvider(["ok"])),
    ) as tau:
        models = tau.available_models()
        assert all(m.provider == "anthropic" for m in models) and len(models) > 1
        other = next(m for m in models if m.id != tau.model.id)
        assert tau.set_model("anthropic", other.id) == other and tau.model == other
        assert tau.cycle_model() not in (None, other)
        tau.set_thinking_level("low")
        assert tau.thinking_level == "low"
        assert tau.cycle_thinking_level() in ("medium", None)


async def test_a_memory_session_forks_and_starts_anew_in_memory(tmp_path: Path) -> None:
    provider = FakeProvider(["one", "two", "three"])
    with create_session(
        _project(tmp_path),
        model=MODEL,
        session="memory",
        environ=_env(tmp_path),
        provider_factory=_factory(provider),
    ) as tau:
        await tau.prompt("first")
        await tau.prompt("second")
        tau.set_label(tau.fork_messages()[0].entry_id, "start")
        assert await tau.fork(tau.fork_messages()[1].entry_id) == "second"
        assert tau.session_file is None and [m.role for m in tau.messages] == ["user", "assistant"]
        assert tau.session.log.labels == {tau.fork_messages()[0].entry_id: "start"}
        await tau.prompt("third")
        assert len(provider.contexts[-1].messages) == 3
        await tau.new_session()
        assert tau.messages == [] and tau.session_file is None
    assert not (tmp_path / "tau" / "sessions").exists()
