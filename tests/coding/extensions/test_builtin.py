"""The built-in extension: Tau's tools and /reload come in through the extension API, always."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_coding.app.session_setup import open_controlled_session
from tau_coding.app.wiring import Options
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.builtin import RELOADED, tau_extension
from tau_coding.extensions.builtin_host import BuiltinHooks
from tau_coding.extensions.host import ExtensionHost
from tau_coding.extensions.ui import HeadlessUI
from tau_coding.session.events import InputHandledEvent
from tau_coding.tools.builtin import create_coding_tools
from tests.coding.extensions.helpers import collect, write_extension
from tests.coding.extensions.test_wiring import build
from tests.e2e.scripted_project import MODEL, Project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    made = Project(root, tmp_path / "home", "openai-completions")
    made.configure("http://127.0.0.1:9")  # nothing here may reach the model
    return made


def handled(events: list[object]) -> list[str | None]:
    return [e.text for e in events if isinstance(e, InputHandledEvent)]


async def test_without_other_extensions_the_builtin_one_brings_the_tools_and_reload(project: Project) -> None:
    session = build(project, [], tools="read,grep,ls")
    try:
        assert isinstance(session.hooks, BuiltinHooks)
        assert [t.name for t in session.harness.tools] == ["read", "grep", "ls"]
        assert [name for name, _ in session.hooks.command_list()] == ["reload"]
        # A bare session (no control) has no other extension to load again; the model is not asked.
        assert handled(await collect(session.prompt("/reload"))) == ["Reloaded 0 extension(s)."]
        assert session.messages == []
    finally:
        session.close()


async def test_reload_typed_as_a_prompt_is_the_sessions_one_reload(project: Project) -> None:
    control = open_controlled_session(
        Options(model=MODEL, no_session=True), project.env(), project.root, warn=lambda m: None
    )
    first = control.session
    told: list[object] = []
    control.reloaded.append(told.append)
    (project.tau_home / "settings.json").write_text(json.dumps({"tools": ["read", "ls"]}))
    try:
        assert handled(await collect(first.prompt("/reload"))) == [RELOADED]
        fresh = control.session
        assert fresh is not first and told == [fresh]
        assert fresh.session_id == first.session_id  # the same conversation, re-read settings
        assert [t.name for t in fresh.harness.tools] == ["read", "ls"]
        assert handled(await collect(fresh.prompt("/reload"))) == [RELOADED]  # and again
    finally:
        control.session.close()


async def test_with_an_extension_loaded_the_host_holds_the_builtin_tools_as_the_base(
    project: Project,
) -> None:
    ext = write_extension(
        project.tau_home / "extensions",
        "mine",
        """
        def activate(tau):
            tau.register_command("mine", lambda args: "mine")
        """,
    )
    assert ext.exists()
    warnings: list[str] = []
    session = build(project, warnings)
    try:
        assert not isinstance(session.hooks, BuiltinHooks)
        tools = [t.name for t in session.harness.tools]
        assert tools == ["read", "write", "edit", "bash", "todo", "task"]
        names = {name for name, _ in session.hooks.command_list()} if session.hooks else set()
        assert names == {"reload", "agents", "mine"}
        assert not any("replaces the built-in tool" in w for w in warnings)
    finally:
        session.close()


def test_the_host_refuses_a_second_owner_but_lets_an_extension_replace_a_builtin_tool(
    tmp_path: Path,
) -> None:
    tools = list(create_coding_tools(tmp_path, names=["read"]).values())
    host = ExtensionHost(cwd=tmp_path, ui=HeadlessUI(lambda m: None), warn=lambda m: None)
    host.add_builtin("tau", tau_extension(tools))
    replacement = create_coding_tools(tmp_path, names=["read"])["read"]
    ExtensionAPI(host, "other").register_tool(replacement)
    assert host.registry.tools["read"] == ("other", replacement)
    with pytest.raises(ValueError, match="already registered by extension other"):
        ExtensionAPI(host, "third").register_tool(replacement)


def test_the_builtin_extension_registers_the_catalogue_and_models_json_providers(project: Project) -> None:
    session = build(project, [], tools="read,task")
    try:
        assert isinstance(session.hooks, BuiltinHooks)
        providers = session.hooks.registry.providers
        assert {"anthropic", "openai", "scripted"} <= providers.keys()  # catalogue + models.json
        assert {r.owner for r in providers.values()} == {"tau"}
        assert [m.id for m in providers["scripted"].models] == ["scripted-model"]
    finally:
        session.close()


async def test_an_extension_provider_of_a_builtin_name_replaces_it(project: Project) -> None:
    ext = write_extension(
        project.root / "x",
        "shadow",
        """
        from tau_agent.testing import FakeProvider
        def activate(tau):
            tau.register_provider("scripted", lambda model: FakeProvider(["from the extension"]))
        """,
    )
    warnings: list[str] = []
    session = build(project, warnings, extensions=[str(ext)])
    try:
        await collect(session.prompt("hi"))  # the models.json URL leads nowhere: only the extension answers
        assert getattr(session.messages[-1], "text", "") == "from the extension"
        assert not any("already registered" in w for w in warnings)
    finally:
        session.close()


def test_tau_s_own_tools_are_drawn_their_own_way_with_or_without_other_extensions(
    project: Project,
) -> None:
    """Found in real use: the task row showed its arguments' JSON, since only third-party
    extensions' renderers reached the TUI. Tau's own tools register theirs the same way."""
    from tau_coding.common.tool_renderers import publish, rendered_call

    publish({})
    try:
        session = build(project, [], tools="read,task")
        try:
            line = rendered_call("task", {"description": "find the word", "prompt": "p", "agent": "explore"})
            assert line == "find the word (explore)"
        finally:
            session.close()
        publish({})
        other = write_extension(project.root, "other", "def activate(tau):\n    pass\n")
        session = build(project, [], tools="read,task", extensions=[str(other)])
        try:
            assert rendered_call("task", {"description": "d", "prompt": "p"}) == "d"
        finally:
            session.close()
    finally:
        publish({})
