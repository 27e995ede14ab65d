"""The composition root: the one module that knows every concrete class.

``build_session`` turns command-line options, the environment and the user's files into a
ready CodingSession: settings, models (built-in catalogue plus models.json), the model and
its credentials, the provider, the tools, resources and the system prompt, and the session
file. Every configuration problem is a ``ConfigurationError`` with one line for the user
(exit code 2); problems in files that can be worked around are warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import urlparse

from tau_agent.provider import ModelProvider, ThinkingLevel
from tau_agent.session.jsonl import SessionFileError, SessionLockedError
from tau_agent.session.log import SessionLog
from tau_agent.session.state import PathSettings
from tau_agent.tools import AgentTool
from tau_ai.catalog import builtin_models
from tau_ai.model import Model
from tau_ai.models_config import ModelsConfig, load_models_config
from tau_coding.app.extension_presence import maybe_build_host
from tau_coding.common.diagnostics import Diagnostic
from tau_coding.config.auth import (
    AuthError,
    AuthStore,
    KeyResolver,
    credential_env_names,
    missing_key_message,
    resolve_api_key,
)
from tau_coding.config.model_resolve import ModelNotFoundError, resolve_model
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import Settings, load_settings, read_json_object
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
from tau_coding.session.reply_retry import RetrySettings
from tau_coding.session.settings_choice import Pinned, SessionSettings, resumed_settings
from tau_coding.session.store.manager import SessionManager, SessionNotFoundError, repair_notice
from tau_coding.tools.builtin import ALL_TOOLS, DEFAULT_TOOLS, create_coding_tools
from tau_coding.tools.config import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, ToolSettings

# When nothing names a model: the first provider with a key, and its everyday model.
DEFAULT_MODELS: dict[str, str] = {
    "anthropic": "claude-sonnet-4-5",
    "openai": "gpt-5.1",
    "google": "gemini-2.5-pro",
    "openrouter": "anthropic/claude-sonnet-4.5",
    "mistral": "devstral-medium-latest",
    "xai": "grok-code-fast-1",
    "deepseek": "deepseek-chat",
    "groq": "openai/gpt-oss-120b",
    "cerebras": "gpt-oss-120b",
}


class ConfigurationError(ValueError):
    """The user must change something before Tau can run; the message says what, in one line."""


class MissingCredentials(ConfigurationError):
    """No model has a key (or the chosen one has none); ``Options.keyless`` opens anyway."""


@dataclass
class Options:
    """What the command line (or an SDK caller) asks for; every field optional."""

    provider: str | None = None
    model: str | None = None
    thinking: ThinkingLevel | None = None
    api_key: str | None = None
    continue_session: bool = False
    session: str | None = None
    session_dir: str | None = None
    no_session: bool = False
    tools: str | None = None
    no_tools: bool = False
    system_prompt: str | None = None
    append_system_prompt: Sequence[str] = ()
    no_skills: bool = False
    no_prompt_templates: bool = False
    max_turns: int | None = None
    warnings: list[str] = field(default_factory=list)
    # extensions and shell hooks (tau_coding.app.extension_setup)
    extensions: Sequence[str] = ()
    no_extensions: bool = False
    trust_project: bool = False
    extension_args: Sequence[str] = ()  # command-line words for flags that extensions declare
    # Open without a key (the interactive mode, so /login and /model can fix it): the default
    # model is chosen when none has a key, and its requests fail until a key is given.
    keyless: bool = False


def load_models(paths: TauPaths, warn: Callable[[str], object]) -> ModelsConfig:
    """Built-in models plus the user's models.json; bad entries are warnings, not failures."""
    builtins = builtin_models()
    problems: list[Diagnostic] = []
    data = read_json_object(paths.models_file, problems)
    for problem in problems:
        warn(str(problem))
    if not data:
        return ModelsConfig(builtins, {}, [])
    config = load_models_config(data, builtins)
    for error in config.errors:
        warn(f"{paths.models_file}: {error.removeprefix('models.json: ')}")
    return config


def _is_local(model: Model) -> bool:
    host = urlparse(model.base_url).hostname or ""
    return host in ("localhost", "127.0.0.1", "::1") or host.endswith(".local")


def choose_model(
    options: Options, settings: Settings, config: ModelsConfig, has_key: Callable[[str], bool]
) -> tuple[Model, ThinkingLevel | None]:
    provider = options.provider or settings.get("defaultProvider")
    spec = options.model or settings.get("defaultModel")
    models = config.models
    if provider is not None and not any(m.provider == provider for m in models):
        raise ConfigurationError(f"unknown provider {provider!r}; tau --list-models shows what is available")
    if spec:
        pool = [m for m in models if m.provider == provider] if options.provider else models
        try:
            resolved = resolve_model(spec, pool, default_provider=provider)
        except ModelNotFoundError as exc:
            raise ConfigurationError(str(exc)) from exc
        return resolved.model, resolved.thinking_level
    candidates = [provider] if provider else [*DEFAULT_MODELS, *config.providers]
    for name in candidates:
        if not has_key(name):
            continue
        preferred = DEFAULT_MODELS.get(name)
        offered = [m for m in models if m.provider == name]
        chosen = next((m for m in offered if m.id == preferred), offered[0] if offered else None)
        if chosen is not None:
            return chosen, None
    if options.keyless:
        first, model_id = next(iter(DEFAULT_MODELS.items()))
        fallback = next((m for m in models if (m.provider, m.id) == (first, model_id)), None)
        if fallback is not None:
            return fallback, None
    raise MissingCredentials(
        "no model configured: set an API key such as ANTHROPIC_API_KEY or OPENAI_API_KEY, "
        "or pass --model provider/id (models.json adds your own)"
    )


def build_session(
    options: Options,
    environ: Mapping[str, str],
    cwd: Path,
    *,
    warn: Callable[[str], object],
    provider_factory: Callable[[Model, str | None], ModelProvider] | None = None,
    today: date | None = None,
    ui: UIBridge | None = None,
) -> CodingSession:
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
        scrub_env=_scrubbed(settings, config),
    )
    # Tau's own tools and commands come in through the built-in extension, on the API every
    # extension uses; the full ExtensionHost is built only when something else is to load.
    tau = tau_extension(_active_tools(options, settings, cwd, tool_settings))
    builtin = BuiltinHost(cwd=paths.cwd, ui=ui or HeadlessUI(warn), activate=tau)
    mcp = maybe_mcp_session(
        paths,
        environ,
        settings.get,
        trust_project=trusted,
        warn=warn,
        notify=(lambda line: ui.notify(line, "warning")) if ui is not None else warn,
        scrub_env=_scrubbed(settings, config),
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
    custom = (host or builtin).registry.providers
    if custom:
        config = ModelsConfig(
            [*config.models, *(m for r in custom.values() for m in r.models)], config.providers, config.errors
        )
    key_for = _key_lookup(options, config, paths, environ)
    choose = _settings_chooser(options, settings, config, custom, key_for, warn)

    tools = [tool for owner, tool in builtin.registry.tools.values() if owner == BUILTIN]
    resources = load_resources(
        cwd,
        paths.tau_home,
        paths.home,
        no_skills=options.no_skills,
        no_prompt_templates=options.no_prompt_templates,
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
        api_key = None if model.provider in custom else key_for(model.provider)
        if api_key is None and not _is_local(model) and model.provider not in custom and not options.keyless:
            raise MissingCredentials(missing_key_message(model.provider))
        summary_model = _summary_model(settings, config, model, lambda p: key_for(p) is not None, warn)
    except BaseException:
        log.close()
        raise
    retry = RetrySettings.from_settings(settings.get)
    make = provider_factory or http_providers(retry, host)

    def provider_for(m: Model) -> ModelProvider:
        if m.provider in custom:
            return custom[m.provider].factory(m)
        return make(m, api_key if m.provider == model.provider else key_for(m.provider))

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
    if host is not None:
        rest = host.registry.parse_flags(options.extension_args)
        if rest:
            session.close()
            raise ConfigurationError(f"unrecognized arguments: {' '.join(rest)}")
        day = today or date.today()
        host.rebuild_system_prompt = lambda active: resources.system_prompt(active, day)
        if mcp is not None:
            host.add_builtin("mcp", mcp.activate, timeout=mcp.handler_timeout)
        host.bind(session)
        return session
    if options.extension_args:
        raise ConfigurationError(
            f"unknown option {options.extension_args[0]!r}; tau --help lists the options"
        )
    builtin.bind(session)
    if mcp is not None:  # after the built-in hooks, which it wraps
        day = today or date.today()
        mcp.attach(session, lambda active: resources.system_prompt(active, day))
    return session


def _scrubbed(settings: Settings, config: ModelsConfig) -> frozenset[str]:
    """Credential variables commands must not see, less those ``shellEnvPassthrough`` lets through."""
    keys = (provider.api_key for provider in config.providers.values())
    passed = {str(name) for name in settings.get("shellEnvPassthrough") or ()}
    return credential_env_names(keys) - passed


SettingsChooser = Callable[[PathSettings, Callable[[], SessionSettings] | None], SessionSettings]


def _settings_chooser(
    options: Options,
    settings: Settings,
    config: ModelsConfig,
    custom: Mapping[str, object],
    key_for: Callable[[str], str | None],
    warn: Callable[[str], object],
) -> SettingsChooser:
    """How a session opened from ``options`` picks its model and thinking level
    (session_settings.py): what the command line names, else what the session's path
    records, else the fallback (by default the configured default model and level)."""

    def has_key(provider: str) -> bool:
        return provider in custom or key_for(provider) is not None

    pinned = Pinned(thinking_level=options.thinking)
    if options.model is not None or options.provider is not None:
        model, level = choose_model(options, settings, config, has_key)
        pinned = Pinned(model, options.thinking or level)

    def find(provider: str, model_id: str) -> Model | None:
        model = next((m for m in config.models if (m.provider, m.id) == (provider, model_id)), None)
        return model if model is not None and (_is_local(model) or has_key(provider)) else None

    def default() -> SessionSettings:
        model, level = choose_model(options, settings, config, has_key)
        thinking: ThinkingLevel = options.thinking or level or settings.get("defaultThinkingLevel") or "off"
        return SessionSettings(model, thinking)

    def choose(recorded: PathSettings, fallback: Callable[[], SessionSettings] | None) -> SessionSettings:
        chosen, warning = resumed_settings(recorded, pinned=pinned, find=find, fallback=fallback or default)
        if warning is not None:
            warn(warning)
        return chosen

    return choose


def _key_lookup(
    options: Options, config: ModelsConfig, paths: TauPaths, environ: Mapping[str, str]
) -> Callable[[str], str | None]:
    """The API key for a provider (``--api-key``, auth.json, environment, models.json), or None."""
    auth = AuthStore(paths.auth_file)
    resolver = KeyResolver(environ)

    def key_for(provider: str) -> str | None:
        configured = config.providers.get(provider)
        try:
            return resolve_api_key(
                provider,
                cli_key=options.api_key,
                auth=auth,
                resolver=resolver,
                models_json_key=configured.api_key if configured else None,
            )
        except AuthError as exc:
            raise ConfigurationError(str(exc)) from exc

    return key_for


def available_models(
    options: Options, environ: Mapping[str, str], cwd: Path, *, warn: Callable[[str], object]
) -> list[Model]:
    """Models a session could switch to: those whose provider has a key, and local servers."""
    paths = TauPaths.from_env(environ, cwd)
    config = load_models(paths, warn)
    key_for = _key_lookup(options, config, paths, environ)
    usable: dict[str, bool] = {}
    out: list[Model] = []
    for model in config.models:
        if model.provider not in usable:
            try:
                usable[model.provider] = key_for(model.provider) is not None
            except ConfigurationError:
                usable[model.provider] = False
        if usable[model.provider] or _is_local(model):
            out.append(model)
    return out


def session_manager(options: Options, environ: Mapping[str, str], cwd: Path) -> SessionManager:
    """The sessions of ``cwd`` (or of ``--session-dir``), as ``build_session`` opens them."""
    paths = TauPaths.from_env(environ, cwd)
    directory = Path(options.session_dir).expanduser() if options.session_dir else None
    return SessionManager(paths.sessions_dir, str(paths.cwd), directory=directory)


def _summary_model(
    settings: Settings,
    config: ModelsConfig,
    model: Model,
    has_key: Callable[[str], bool],
    warn: Callable[[str], object],
) -> Model | None:
    """The model ``compaction.model`` ("provider/id") names for summaries; None: the session's.

    A model that is unknown or has no credentials is a warning: the session model is used.
    """
    spec = settings.get("compaction.model")
    if not spec:
        return None
    try:
        chosen = resolve_model(spec, config.models).model
    except ModelNotFoundError as exc:
        warn(f"compaction.model: {exc}; summaries use {model.provider}/{model.id}")
        return None
    if chosen.provider != model.provider and not has_key(chosen.provider) and not _is_local(chosen):
        warn(
            f"compaction.model: {missing_key_message(chosen.provider)}; summaries use {model.provider}/{model.id}"
        )
        return None
    return chosen


def http_providers(
    retry: RetrySettings, host: ExtensionHostPort | None = None
) -> Callable[[Model, str | None], ModelProvider]:
    """HTTP providers with the ``retry.provider.*`` limits, whose requests pass through the
    ``before_provider_request`` handlers of ``host``'s extensions when there is one."""

    def make(model: Model, api_key: str | None) -> ModelProvider:
        from tau_coding.extensions.http_provider import http_provider

        return http_provider(model, api_key, host=host, retry=retry)

    return make


def _active_tools(
    options: Options, settings: Settings, cwd: Path, tool_settings: ToolSettings
) -> list[AgentTool]:
    if options.no_tools:
        return []
    names: Sequence[str] = DEFAULT_TOOLS
    if options.tools is not None:
        names = [n.strip() for n in options.tools.split(",") if n.strip()]
    elif isinstance(settings.get("tools"), list):
        names = [str(n) for n in settings.get("tools")]
    unknown = [n for n in names if n not in ALL_TOOLS]
    if unknown:
        raise ConfigurationError(f"unknown tool {unknown[0]!r}; known tools: {', '.join(ALL_TOOLS)}")
    return list(create_coding_tools(cwd, settings=tool_settings, names=names).values())


def _open_log(options: Options, manager: SessionManager) -> SessionLog:
    if options.no_session:
        return manager.in_memory()
    if options.session_dir and manager.directory.exists() and not manager.directory.is_dir():
        raise ConfigurationError(f"--session-dir {options.session_dir} is not a directory")
    try:
        if options.session:
            return manager.open(options.session)
        if options.continue_session:
            return manager.continue_recent()
    except (SessionNotFoundError, SessionLockedError, SessionFileError) as exc:
        raise ConfigurationError(str(exc)) from exc
    except OSError as exc:
        what = f"session {options.session}" if options.session else f"the sessions in {manager.directory}"
        raise ConfigurationError(f"cannot open {what}: {exc.strerror or exc}") from exc
    return manager.new()
