"""Open a session together with its SessionControl, the way RPC mode and the SDK need it.

``build_session`` gives a CodingSession; a long-lived frontend also needs the session manager,
the list of models it may switch to, and a way to reload the user's files. This module joins
those from the same ``Options``, so ``reload`` honours exactly what the session was opened with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from tau_agent.provider import ModelProvider
from tau_ai.model import Model
from tau_coding.app.wiring import Options, available_models, build_session, session_manager
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.control_link import attach_control, extension_models
from tau_coding.extensions.ui import UIBridge
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.todo.extension import show_todos
from tau_coding.todo.items import todos_on_path

ProviderMaker = Callable[[Model, str | None], ModelProvider]


def open_controlled_session(
    options: Options,
    environ: Mapping[str, str],
    cwd: Path,
    *,
    warn: Callable[[str], object],
    provider_factory: ProviderMaker | None = None,
    adjust: Callable[[CodingSession], None] = lambda session: None,
    ui: UIBridge | None = None,
    frontend: Callable[[ExtensionAPI], None] | None = None,
) -> SessionControl:
    """Build the session (ConfigurationError as ``build_session``) and its control.

    ``adjust`` is applied to the session now and to every session ``reload`` builds (the SDK
    adds its custom tools this way). ``frontend`` registers the frontend's own commands and keys
    in the built-in extension, of this session and of every reloaded one (``build_session``)."""
    session = build_session(
        options, environ, cwd, warn=warn, provider_factory=provider_factory, ui=ui, frontend=frontend
    )
    adjust(session)

    def rebuild(old: CodingSession) -> CodingSession:
        model = old.model
        fresh_options = replace(
            options,
            provider=model.provider,
            model=f"{model.provider}/{model.id}",
            thinking=old.thinking_level,
            no_session=True,  # a throwaway log; the session's own log moves over below
            session=None,
            continue_session=False,
        )
        # A session runs in the directory it records (a resumed one from another project).
        recorded = Path(old.log.header.cwd) if old.log.header.cwd else cwd
        where = recorded if recorded.is_dir() else cwd
        fresh = build_session(
            fresh_options,
            environ,
            where,
            warn=warn,
            provider_factory=provider_factory,
            ui=ui,
            frontend=frontend,
        )
        adjust(fresh)
        scratch = fresh.log
        fresh.input_source = old.input_source
        fresh.harness.steering_mode = old.harness.steering_mode
        fresh.harness.follow_up_mode = old.harness.follow_up_mode
        if old.permissions is not None and fresh.permissions is not None:  # the mode and answers stay
            fresh.permissions.set_mode(old.permissions.mode)
            fresh.permissions.remember(old.permissions.remembered)
        # Sessions opened later are restored as the original options say (the model just
        # given to the fresh session is not a command-line choice).
        fresh.restore_settings = old.restore_settings
        fresh.use_log(old.log)
        scratch.close()
        return fresh

    def models() -> list[Model]:  # extensions' providers' models too (while registered)
        return [*available_models(options, environ, cwd, warn=warn), *extension_models(control.session)]

    control = SessionControl(session, session_manager(options, environ, cwd), models=models, rebuild=rebuild)
    attach_control(control)  # extensions' session changes go through it (api.py)

    def plan_to_todos(current: CodingSession, plan: str) -> int:  # the plan's steps: the list
        from tau_coding.todo.plan import record_plan  # when a plan is approved, not at every start

        return record_plan(current.log, plan)

    control.plan_to_todos = plan_to_todos
    if ui is not None:  # the task list shown is the one on the path, at start and after each move
        bridge = ui

        def show_path_todos(current: CodingSession) -> None:
            show_todos(bridge, todos_on_path(current.log.path()))

        control.path_changed.append(show_path_todos)
        show_path_todos(session)
    return control


__all__ = ["ProviderMaker", "open_controlled_session"]
