"""Which model a session uses, and with what credentials: the built-in catalogue plus models.json,
the command line and settings, keys from ``--api-key``, auth.json, the environment or models.json."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlparse

from tau_agent.provider import ThinkingLevel
from tau_agent.session.state import PathSettings
from tau_ai.model import Model
from tau_ai.models_config import ModelsConfig
from tau_coding.app.models_file import load_models
from tau_coding.app.options import ConfigurationError, MissingCredentials, Options
from tau_coding.config.auth import AuthError, AuthStore, KeyResolver, missing_key_message, resolve_api_key
from tau_coding.config.azure import AzureConfigError, azure_model
from tau_coding.config.bedrock import BedrockConfigError, bedrock_model
from tau_coding.config.model_resolve import ModelNotFoundError, resolve_model
from tau_coding.config.paths import TauPaths
from tau_coding.config.platform_keys import PlatformKeys
from tau_coding.config.settings import Settings
from tau_coding.config.vertex import VertexConfigError, vertex_model
from tau_coding.session.settings_choice import Pinned, SessionSettings, resumed_settings

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
    # Subscription logins (tau login): Pi's choice where the catalogue has it.
    "openai-codex": "gpt-5.5",
    "github-copilot": "claude-sonnet-4.5",
    "google-gemini-cli": "gemini-2.5-pro",
    # The generated catalogue's providers (Pi's choices where the catalogue has them).
    "amazon-bedrock": "us.anthropic.claude-opus-4-6-v1",
    "azure-openai-responses": "gpt-5.4",
    "google-vertex": "gemini-3.1-pro-preview",
    "google-vertex-anthropic": "claude-sonnet-4-5@20250929",
    "vercel-ai-gateway": "zai/glm-5.1",
    "zai": "glm-5.1",
    "minimax": "MiniMax-M2.7",
    "minimax-cn": "MiniMax-M2.7",
    "moonshotai": "kimi-k2.6",
    "moonshotai-cn": "kimi-k2.6",
    "huggingface": "moonshotai/Kimi-K2.6",
    "fireworks": "accounts/fireworks/models/kimi-k2p6",
    "opencode": "kimi-k2.6",
    "opencode-go": "kimi-k2.6",
    "kimi-coding": "kimi-for-coding",
    "cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.6",
    "cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.6",
    "xiaomi": "mimo-v2.5-pro",
    "xiaomi-token-plan-cn": "mimo-v2.5-pro",
    "xiaomi-token-plan-ams": "mimo-v2.5-pro",
    "xiaomi-token-plan-sgp": "mimo-v2.5-pro",
}


PLATFORM_ERRORS = (AzureConfigError, VertexConfigError, BedrockConfigError)


def is_local_model(model: Model) -> bool:
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


def platform_settings(environ: Mapping[str, str]) -> Callable[[Model, str | None], Model]:
    """``model`` (to be used with ``key``) with its cloud platform's settings from the
    environment: Azure's endpoint, api-version and deployment, Vertex's project and location.
    Unusable settings are a one-line ConfigurationError."""

    def apply(model: Model, key: str | None) -> Model:
        try:
            with_key = key is not None and not key.startswith("Bearer ")
            return bedrock_model(
                vertex_model(azure_model(model, environ), environ, with_key=with_key), environ
            )
        except PLATFORM_ERRORS as exc:
            raise ConfigurationError(str(exc)) from exc

    return apply


def header_resolver(environ: Mapping[str, str]) -> Callable[[Model], Model]:
    """``model`` with its models.json header values resolved like ``apiKey`` (``!command``,
    an environment variable's name, or the text); a failing command is a ConfigurationError."""
    resolver = KeyResolver(environ)

    def resolve(model: Model) -> Model:
        if not model.headers:
            return model
        try:
            values = {name: resolver.resolve_header(value) for name, value in model.headers.items()}
        except AuthError as exc:
            raise ConfigurationError(f"a header of {model.provider}/{model.id}: {exc}") from exc
        return replace(model, headers={name: value for name, value in values.items() if value})

    return resolve


SettingsChooser = Callable[[PathSettings, Callable[[], SessionSettings] | None], SessionSettings]


def settings_chooser(
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
        return model if model is not None and (is_local_model(model) or has_key(provider)) else None

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


def key_lookup(
    options: Options,
    config: ModelsConfig,
    paths: TauPaths,
    environ: Mapping[str, str],
    platform: PlatformKeys | None = None,
) -> Callable[[str], str | None]:
    """The API key for a provider (``--api-key``, auth.json, environment, models.json), else
    a cloud platform's sign-in (``platform``: its tokens are refreshed as they expire), or None."""
    resolver = KeyResolver(environ)
    platform_keys = platform or PlatformKeys(environ)

    def key_for(provider: str) -> str | None:
        configured = config.providers.get(provider)
        try:
            key = resolve_api_key(  # auth.json read afresh: a login made meanwhile counts
                provider,
                cli_key=options.api_key,
                auth=AuthStore(paths.auth_file),
                resolver=resolver,
                models_json_key=configured.api_key if configured else None,
            )
        except AuthError as exc:
            raise ConfigurationError(str(exc)) from exc
        if key is None and platform_keys.handles(provider):
            try:
                return platform_keys.key(provider)
            except PLATFORM_ERRORS as exc:
                raise ConfigurationError(str(exc)) from exc
        return key

    return key_for


def available_models(
    options: Options, environ: Mapping[str, str], cwd: Path, *, warn: Callable[[str], object]
) -> list[Model]:
    """Models a session could switch to: those whose provider has a key, and local servers."""
    paths = TauPaths.from_env(environ, cwd)
    config = load_models(paths, warn)
    key_for = key_lookup(options, config, paths, environ)
    usable: dict[str, bool] = {}
    out: list[Model] = []
    for model in config.models:
        if model.provider not in usable:
            try:
                usable[model.provider] = key_for(model.provider) is not None
            except ConfigurationError:
                usable[model.provider] = False
        if usable[model.provider] or is_local_model(model):
            out.append(model)
    return out


def summary_model(
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
    if chosen.provider != model.provider and not has_key(chosen.provider) and not is_local_model(chosen):
        warn(
            f"compaction.model: {missing_key_message(chosen.provider)}; summaries use {model.provider}/{model.id}"
        )
        return None
    return chosen
