"""Which tools a session starts with: ``--tools``, ``--no-tools``, ``--no-builtin-tools``, the
``tools`` setting, and the credential variables commands must not see."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tau_agent.tools import AgentTool
from tau_ai.models_config import ModelsConfig
from tau_coding.app.builtin_parts import PART_TOOLS
from tau_coding.app.options import ConfigurationError, Options
from tau_coding.config.auth import credential_env_names
from tau_coding.config.settings import Settings
from tau_coding.sandbox.policy import SandboxPolicy
from tau_coding.tools.builtin import ALL_TOOLS, DEFAULT_TOOLS, create_coding_tools
from tau_coding.tools.config import ToolSettings


def scrubbed_env_names(settings: Settings, config: ModelsConfig) -> frozenset[str]:
    """Credential variables commands must not see, less those ``shellEnvPassthrough`` lets through."""
    keys = (provider.api_key for provider in config.providers.values())
    passed = {str(name) for name in settings.get("shellEnvPassthrough") or ()}
    return credential_env_names(keys) - passed


def _tool_names(options: Options) -> list[str] | None:
    if options.tools is None:
        return None
    return [n.strip() for n in options.tools.split(",") if n.strip()]


def allowed_tools(options: Options) -> frozenset[str] | None:
    """The names ``--tools``/``--no-tools`` allow among all tools, extensions' included."""
    if options.no_tools:
        return frozenset()
    names = _tool_names(options)
    return None if names is None else frozenset(names)


def _listed_tools(options: Options, settings: Settings) -> list[str] | None:
    """The tool names ``--tools`` (else the ``tools`` setting) lists, or None when neither does."""
    listed = _tool_names(options)
    if listed is None and isinstance(settings.get("tools"), list):
        listed = [str(n) for n in settings.get("tools")]
    return listed


def _wanted_tools(options: Options, settings: Settings) -> list[str]:
    """The tool names asked for, else the defaults."""
    listed = _listed_tools(options, settings)
    return list(DEFAULT_TOOLS) if listed is None else listed


def chosen_tools(options: Options, settings: Settings) -> list[str] | None:
    """The tool names asked for (none with ``--no-tools``/``--no-builtin-tools``), or None when
    nobody chose: the built-in parts (``todo``, ``task``) are then all on."""
    if options.no_tools or options.no_builtin_tools:
        return []
    return _listed_tools(options, settings)


def check_tool_names(options: Options, settings: Settings, provided: Callable[[str], bool]) -> None:
    """``--tools`` may name extension tools too: a name nothing provides is an error."""
    if options.no_tools:
        return
    wanted = _wanted_tools(options, settings)
    unknown = [n for n in wanted if n not in ALL_TOOLS and n not in PART_TOOLS and not provided(n)]
    if unknown:
        known = ", ".join((*ALL_TOOLS, *PART_TOOLS))
        raise ConfigurationError(f"unknown tool {unknown[0]!r}; known tools: {known}")


def active_tools(
    options: Options,
    settings: Settings,
    cwd: Path,
    tool_settings: ToolSettings,
    sandbox: SandboxPolicy | Callable[[], SandboxPolicy | None] | None = None,
) -> list[AgentTool]:
    """The built-in tools to start with (names that are not built in are left to extensions)."""
    if options.no_tools or options.no_builtin_tools:
        return []
    names = [n for n in _wanted_tools(options, settings) if n in ALL_TOOLS]
    return list(create_coding_tools(cwd, settings=tool_settings, names=names, sandbox=sandbox).values())
