"""The composition root: the one module that knows every concrete class.

``build_session`` turns command-line options, the environment and the user's files into a
ready CodingSession: settings, models (built-in catalogue plus models.json), the model and
its credentials, the provider, the tools, resources and the system prompt, and the session
file. Every configuration problem is a ``ConfigurationError`` with one line for the user
(exit code 2); problems in files that can be worked around are warnings.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import NamedTuple

from tau_agent.provider import ModelProvider
from tau_agent.session.jsonl import SessionFileError, SessionLockedError
from tau_agent.session.log import SessionLog
from tau_ai.apis import unsupported_api
from tau_ai.model import Model
from tau_ai.models_config import ModelsConfig
from tau_coding.app.builtin_parts import builtin_parts
from tau_coding.app.checkpoint_setup import session_checkpoints
from tau_coding.app.extension_presence import maybe_build_host
from tau_coding.app.model_choice import (
    available_models,
    choose_model,
    header_resolver,
    is_local_model,
    key_lookup,
    platform_settings,
    settings_chooser,
)
from tau_coding.app.model_choice import (
    summary_model as choose_summary_model,
)
from tau_coding.app.models_file import load_models
from tau_coding.app.options import ConfigurationError, MissingCredentials, Options
from tau_coding.app.permission_setup import bash_sandbox, permission_gate
from tau_coding.app.tool_choice import (
    active_tools,
    allowed_tools,
    check_tool_names,
    chosen_tools,
    scrubbed_env_names,
)
from tau_coding.config.auth import (
    missing_key_message,
)
from tau_coding.config.paths import TauPaths
from tau_coding.config.platform_keys import PlatformKeys
from tau_coding.config.settings import Settings, load_settings
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.builtin import tau_extension
from tau_coding.extensions.builtin_host import BuiltinHost
from tau_coding.extensions.host_port import ExtensionHostPort
from tau_coding.extensions.registry import BUILTIN
from tau_coding.extensions.trust import project_is_trusted
from tau_coding.extensions.ui import HeadlessUI, UIBridge
from tau_coding.mcp.presence import maybe_mcp_session
from tau_coding.resources.loader import load_resources
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.session.permission_seam import install_permissions, with_mode_note
from tau_coding.session.reply_retry import RetrySettings
from tau_coding.session.store.manager import SessionManager, SessionNotFoundError, repair_notice
from tau_coding.tools.config import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, ToolSettings
from tau_coding.tracing import tracing_wanted


def build_session(
    options: Options,
    environ: Mapping[str, str],
    cwd: Path,
    *,
    warn: Callable[[str], object],
    provider_factory: Callable[[Model, str | None], ModelProvider] | None = None,
    today: date | None = None,
    ui: UIBridge | None = None,
    frontend: Callable[[ExtensionAPI], None] | None = None,
) -> CodingSession:
    """``frontend`` registers the frontend's own commands and keys through the built-in
    extension (``tau_extension``); every other argument is described in the module docstring."""
    paths = TauPaths.from_env(environ, cwd)
    trusted = project_is_trusted(paths.tau_home, paths.cwd, trust_flag=options.trust_project)
    settings, diagnostics = load_settings(
        paths.user_settings, paths.project_settings, project_trusted=trusted
    )
    for diagnostic in diagnostics:
        warn(str(diagnostic))
    config = load_models(paths, warn)
    tool_settings = ToolSettings(
        max_lines=settings.get("toolOutput.maxLines", DEFAULT_MAX_LINES),
        max_bytes=settings.get("toolOutput.maxBytes", DEFAULT_MAX_BYTES),
        shell_path=settings.get("shellPath"),
        scrub_env=scrubbed_env_names(settings, config),
    )
    # Tau's own tools and commands come in through the built-in extension, on the API every
    # extension uses; the full ExtensionHost is built only when something else is to load.
    notify = (lambda line: ui.notify(line, "warning")) if ui is not None else warn
    try:
        gate = permission_gate(options.permission_mode, options.can_ask, settings, paths, warn)
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from exc
    sandbox = bash_sandbox(settings, paths, gate, notify)
    catalogue: dict[str, list[Model]] = {}
    for listed in config.models:
        catalogue.setdefault(listed.provider, []).append(listed)
    headers = header_resolver(environ)
    platform = platform_settings(environ)

    def catalogue_provider(m: Model) -> ModelProvider:  # called once the session's model is chosen
        key = api_key if m.provider == model.provider else key_for(m.provider)
        return make(platform(headers(m), key), key)

    day = today or date.today()
    parts = builtin_parts(
        chosen_tools(options, settings),
        paths,
        settings,
        tool_settings,
        project_trusted=trusted,
        warn=warn,
        models=lambda: config.models,
        provider_for=lambda m: provider_for(m),
        system_prompt=lambda active: resources.system_prompt(active, day),
        sandbox=sandbox,
    )
    tools_on = active_tools(options, settings, cwd, tool_settings, sandbox)
    tau = tau_extension(
        tools_on, frontend, providers=catalogue, provider_factory=catalogue_provider, parts=parts
    )
    builtin = BuiltinHost(cwd=paths.cwd, ui=ui or HeadlessUI(warn), activate=tau)
    mcp = maybe_mcp_session(
        paths,
        environ,
        settings.get,
        trust_project=trusted,
        warn=warn,
        notify=notify,
        scrub_env=scrubbed_env_names(settings, config),
    )
    host = maybe_build_host(
        paths,
        settings.values,
        cli_paths=options.extensions,
        no_extensions=options.no_extensions,
        trust_project=options.trust_project,
        warn=warn,
        ui=ui,
        builtin=tau,
    )
    check_tool_names(options, settings, lambda name: host is not None and name in host.registry.tools)
    registry = (host or builtin).registry
    custom = {name: r for name, r in registry.providers.items() if r.owner != BUILTIN}  # extensions'
    base_models = list(config.models)
    if custom:
        config = ModelsConfig(
            [*config.models, *(m for r in custom.values() for m in r.models)], config.providers, config.errors
        )
    platform_keys = PlatformKeys(environ)
    key_for = key_lookup(options, config, paths, environ, platform_keys)
    choose = settings_chooser(options, settings, config, custom, key_for, warn)

    tools = [tool for owner, tool in builtin.registry.tools.values() if owner == BUILTIN]
    packaged = _package_resources(settings, paths, trusted)
    if host is not None and "resources_discover" in host.registry.handlers:
        more_skills, more_prompts = host.discover_resources()
        packaged = _Packaged([*packaged.skills, *more_skills], [*packaged.prompts, *more_prompts])
    resources = load_resources(
        cwd,
        paths.tau_home,
        paths.home,
        no_skills=options.no_skills,
        no_prompt_templates=options.no_prompt_templates,
        no_context_files=options.no_context_files,
        skill_paths=[*_strings(settings.get("skills")), *options.skills, *packaged.skills],
        template_paths=[*_strings(settings.get("prompts")), *options.prompt_templates, *packaged.prompts],
        system_prompt_arg=options.system_prompt,
        append_system_prompt_arg=list(options.append_system_prompt) or None,
    )
    for diagnostic in resources.diagnostics:
        warn(str(diagnostic))
    log = _open_log(options, session_manager(options, environ, cwd))
    notice = repair_notice(log)
    if notice is not None:
        warn(notice)
    try:
        chosen = choose(log.settings(), None)
        model, thinking = chosen.model, chosen.thinking_level
        unspoken = None if model.provider in custom else unsupported_api(model.provider, model.id, model.api)
        if unspoken is not None:
            raise ConfigurationError(unspoken)
        api_key = None if model.provider in custom else key_for(model.provider)
        if (
            api_key is None
            and not is_local_model(model)
            and model.provider not in custom
            and not options.keyless
        ):
            raise MissingCredentials(missing_key_message(model.provider))
        platform(model, api_key)  # a cloud platform's settings are checked now, not at the first request
        summary_model = choose_summary_model(settings, config, model, lambda p: key_for(p) is not None, warn)
    except BaseException:
        log.close()
        raise
    retry = RetrySettings.from_settings(settings.get)
    make = provider_factory or http_providers(retry, host, key_for, platform_keys.invalidate)

    def provider_for(m: Model) -> ModelProvider:
        """The registered provider of ``m``: an extension's, else the built-in extension's."""
        registration = registry.providers.get(m.provider)
        return registration.factory(m) if registration is not None else catalogue_provider(m)

    session = CodingSession(
        log=log,
        model=model,
        provider_factory=provider_for,
        tools=tools,
        system_prompt=resources.system_prompt(tools, today or date.today()),
        cwd=paths.cwd,
        thinking_level=thinking,
        resources=resources,
        tool_settings=tool_settings,
        max_turns=options.max_turns,
        steering_mode=settings.get("steeringMode", "one-at-a-time"),
        follow_up_mode=settings.get("followUpMode", "one-at-a-time"),
        compaction=CompactionSettings.from_settings(settings.get),
        summary_model=summary_model,
        restore_settings=lambda recorded, current: choose(recorded, lambda: current),
        retry=retry,
    )
    if options.can_ask and ui is not None:  # a frontend that asks (not print mode)
        from tau_coding.extensions.approval_dialog import DialogApprover

        gate.approver = DialogApprover(ui)
    install_permissions(session, gate)
    if tracing_wanted(options.trace_file, environ):
        _trace(session, options.trace_file, environ, warn)
    session.checkpoints = session_checkpoints(paths, settings.get, disabled=options.no_checkpoints)
    if host is not None:
        host.allowed_tools = allowed_tools(options)
        host.sandbox_for = sandbox  # tau.exec runs where the model's bash runs
        host.read_setting = settings.get
        live = host  # the extensions' providers as registered now (unregister_provider)
        host.list_models = lambda: [*base_models, *live.extension_models()]
        host.unconfined_exec = frozenset(_strings(settings.get("sandbox.unconfinedExtensions")))
        rest = host.registry.parse_flags(options.extension_args)
        if rest:
            session.close()
            raise ConfigurationError(f"unrecognized arguments: {' '.join(rest)}")
        day = today or date.today()
        host.rebuild_system_prompt = lambda active: with_mode_note(
            resources.system_prompt(active, day), gate.mode
        )
        if mcp is not None:
            host.add_builtin("mcp", mcp.activate, timeout=mcp.handler_timeout)
            session.mcp = mcp
        host.bind(session)
        return session
    if options.extension_args:
        raise ConfigurationError(
            f"unknown option {options.extension_args[0]!r}; tau --help lists the options"
        )
    builtin.bind(session)
    if mcp is not None:  # after the built-in hooks, which it wraps
        day = today or date.today()
        mcp.attach(session, lambda active: with_mode_note(resources.system_prompt(active, day), gate.mode))
        session.mcp = mcp
    return session


def _trace(
    session: CodingSession, trace_file: str | None, environ: Mapping[str, str], warn: Callable[[str], object]
) -> None:
    """Spans of this session (docs/tracing.md); without the ``otel`` extra, one warning and no traces."""
    try:
        from tau_coding.tracing.setup import trace_session
    except ImportError:
        warn("tracing needs OpenTelemetry: pip install 'tau-agent-harness[otel]'; no traces this run")
        return
    trace_session(session, trace_file, environ)


def session_manager(options: Options, environ: Mapping[str, str], cwd: Path) -> SessionManager:
    """The sessions of ``cwd`` (or of ``--session-dir``, else the ``sessionDir`` setting), as
    ``build_session`` opens them."""
    paths = TauPaths.from_env(environ, cwd)
    chosen = options.session_dir
    if chosen is None:  # Pi's ``sessionDir`` setting, below the flag
        trusted = project_is_trusted(paths.tau_home, paths.cwd, trust_flag=options.trust_project)
        setting = load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)[0]
        value = setting.get("sessionDir")
        chosen = value if isinstance(value, str) and value.strip() else None
    directory = Path(chosen).expanduser() if chosen else None
    return SessionManager(paths.sessions_dir, str(paths.cwd), directory=directory)


def http_providers(
    retry: RetrySettings,
    host: ExtensionHostPort | None = None,
    key_for: Callable[[str], str | None] | None = None,
    refused: Callable[[str], None] | None = None,
) -> Callable[[Model, str | None], ModelProvider]:
    """HTTP providers with the ``retry.provider.*`` limits, whose requests pass through the
    ``before_provider_request`` handlers of ``host``'s extensions when there is one. With
    ``key_for``, a subscription login's token, or a cloud platform's expiring sign-in token, is
    looked up again before each request, so a long session goes on with the refreshed token
    (config/oauth/store.py, config/cloud_token.py; AWS credentials sign each attempt as they are
    now); ``refused(provider)`` forgets a platform token the server refused (a 401, AWS's
    ExpiredToken), and the request is sent once more with a fresh one."""

    def make(model: Model, api_key: str | None) -> ModelProvider:
        from tau_coding.config.oauth.models import with_login
        from tau_coding.config.oauth.providers import LOGIN_PROVIDER_IDS
        from tau_coding.config.platform_keys import renewed
        from tau_coding.extensions.http_provider import http_provider

        renew, reauth = None, None
        signed_in = renewed(model.provider, api_key)
        if key_for is not None and api_key and (model.provider in LOGIN_PROVIDER_IDS or signed_in):
            renew = functools.partial(key_for, model.provider)
        if refused is not None and renew is not None and signed_in:
            reauth = functools.partial(refused, model.provider)
        return http_provider(
            with_login(model, api_key), api_key, host=host, retry=retry, renew_key=renew, refused=reauth
        )

    return make


def _package_resources(settings: Settings, paths: TauPaths, trusted: bool) -> _Packaged:
    """The active packages' skills and prompts (as strings); none read unless ``packages`` is set."""
    if not settings.get("packages"):
        return _Packaged([], [])
    from tau_coding.packages.resource_paths import package_resources

    found = package_resources(paths, trusted=trusted)
    return _Packaged([str(p) for p in found.skills], [str(p) for p in found.prompts])


class _Packaged(NamedTuple):
    skills: list[str]
    prompts: list[str]


def _strings(value: object) -> list[str]:
    """A settings list of paths (``skills``, ``prompts``); anything else counts as empty."""
    return [str(item) for item in value] if isinstance(value, list) else []


def _names_new_file(ref: str) -> bool:
    """``--session`` names a file path (not an id prefix) that does not exist yet: Pi creates it."""
    looks_like_path = "/" in ref or ref.endswith(".jsonl")
    return looks_like_path and not Path(ref).expanduser().exists()


def _open_log(options: Options, manager: SessionManager) -> SessionLog:
    if options.no_session:
        return manager.in_memory()
    if manager.directory.exists() and not manager.directory.is_dir():
        given = (
            f"--session-dir {options.session_dir}"
            if options.session_dir
            else f"sessionDir {manager.directory}"
        )
        raise ConfigurationError(f"{given} is not a directory")
    try:
        if options.fork:
            return manager.fork_from(options.fork)
        if options.session and _names_new_file(options.session):
            return manager.new_at(Path(options.session).expanduser())
        if options.session:
            return manager.open(options.session)
        if options.continue_session:
            return manager.continue_recent()
    except SessionLockedError as exc:  # say how, in this program's words (tau_agent's are general)
        raise ConfigurationError(
            f"{exc.path}: the session is open in another Tau process; "
            f"tau --fork {exc.path} carries it on in a new session"
        ) from exc
    except (SessionNotFoundError, SessionFileError) as exc:
        raise ConfigurationError(str(exc)) from exc
    except OSError as exc:
        what = f"session {options.session}" if options.session else f"the sessions in {manager.directory}"
        raise ConfigurationError(f"cannot open {what}: {exc.strerror or exc}") from exc
    return manager.new()


__all__ = [
    "ConfigurationError",
    "MissingCredentials",
    "Options",
    "available_models",
    "build_session",
    "choose_model",
    "http_providers",
    "load_models",
    "session_manager",
]
