"""The TUI's own commands and keys come in through the built-in extension, like an extension's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tau_coding.app.session_setup import open_controlled_session
from tau_coding.app.wiring import Options
from tau_coding.config.auth import AuthStore
from tau_coding.extensions.builtin_host import BuiltinHooks
from tau_coding.modes.interactive.session_port import CodingSessionPort
from tau_coding.modes.interactive.tui_builtins import TuiBuiltins, key_bindings
from tau_coding.session.control import SessionControl
from tau_coding.tui.keymap import ACTIONS
from tau_coding.tui.shell import commands
from tau_coding.tui.shell.app import TauApp
from tests.coding.extensions.helpers import write_extension
from tests.e2e.scripted_project import MODEL, Project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    made = Project(root, tmp_path / "home", "openai-completions")
    made.configure("http://127.0.0.1:9")  # nothing here may reach the model
    return made


def open_session(project: Project, builtins: TuiBuiltins, warn: Callable[[str], object]) -> SessionControl:
    options = Options(model=MODEL, no_session=True, extensions=(), no_extensions=False)
    return open_controlled_session(
        options, project.env(), project.root, warn=warn, frontend=builtins.activate
    )


def test_every_command_of_the_tui_table_and_every_remappable_key_is_registered_as_tau(
    project: Project,
) -> None:
    control = open_session(project, TuiBuiltins(), lambda m: None)
    try:
        hooks = control.session.hooks
        assert isinstance(hooks, BuiltinHooks)
        registry = hooks.registry
        for spec in commands.BUILTIN:
            assert registry.commands[spec.name].owner == "tau", spec.name
            assert hooks.own_command(spec.name) is registry.commands[spec.name].handler
        keys = {key.strip() for binding, _ in key_bindings() for key in binding.key.split(",")}
        assert {"ctrl+l", "ctrl+p", "escape", "shift+enter", "alt+enter"} <= keys
        assert {s.key for s in registry.shortcuts.values() if s.owner == "tau"} == keys
        assert {binding.id for binding, _ in key_bindings()} == set(ACTIONS)  # every remappable action
        assert hooks.shortcut_list() == []  # the TUI binds its own keys; none left for it to bind again
    finally:
        control.session.close()


def test_a_reload_registers_them_again_in_the_fresh_session(project: Project) -> None:
    control = open_session(project, TuiBuiltins(), lambda m: None)
    try:
        fresh = control.reload()
        assert fresh.hooks is not None and fresh.hooks.own_command("model") is not None
    finally:
        control.session.close()


def test_an_extension_asking_for_a_tui_command_or_key_is_refused_in_one_line(project: Project) -> None:
    write_extension(
        project.tau_home / "extensions",
        "grabby",
        """
        def activate(tau):
            tau.register_command("mine", lambda args: "mine")
            tau.register_command("model", lambda args: "not yours")
        """,
    )
    write_extension(
        project.tau_home / "extensions",
        "keys",
        """
        def activate(tau):
            tau.register_shortcut("ctrl+l", lambda: "not yours either")
        """,
    )
    warnings: list[str] = []
    control = open_session(project, TuiBuiltins(), warnings.append)
    try:
        hooks = control.session.hooks
        assert hooks is not None
        refusals = [w for w in warnings if "already registered by extension tau" in w]
        assert len(refusals) == 2, warnings
        assert all("\n" not in w for w in refusals)
        assert any("'model'" in w for w in refusals) and any("'ctrl+l'" in w for w in refusals)
        assert hooks.own_command("model") is not None  # still Tau's
    finally:
        control.session.close()


async def test_a_typed_tui_command_runs_the_registered_handler_on_the_bound_app(project: Project) -> None:
    builtins = TuiBuiltins()
    control = open_session(project, builtins, lambda m: None)
    port = CodingSessionPort(control, auth=AuthStore(project.tau_home / "auth.json"), settings=dict)
    app = TauApp(port, home=str(project.home), list_files=None)
    try:
        assert await port.run_command("name", "Before binding") is not None
        assert control.session.log.name is None  # no app yet: the handler does nothing
        async with app.run_test() as pilot:
            builtins.bind(app)
            result = await port.run_command("name", "Release  notes")
            await pilot.pause()
            assert result is not None and result.message == ""
            assert control.session.log.name == "Release notes"
            assert await port.run_command("no-such-command", "") is None  # a prompt, then
    finally:
        builtins.bind(None)
        control.session.close()
