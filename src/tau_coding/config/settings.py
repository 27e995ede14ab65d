"""settings.json: user settings, then project settings merged over them.

The file's shape is declared as msgspec structures (``SettingsFile`` and the objects inside
it); each key is decoded on its own against its field's type, so one bad key is one
diagnostic and the rest loads. A wrong type or a malformed file is a one-line diagnostic and
the default is used; an unknown key is a warning (it may belong to a newer Tau or to Pi).
msgspec is already loaded for the session's messages; pydantic would cost ~200 ms here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import msgspec
from msgspec import UNSET, UnsetType

from tau_coding.common.diagnostics import Diagnostic

# UNSET: absent. JSON has no UNSET, so a present value (null included) must be of the type.
Text = str | UnsetType
Count = int | UnsetType
Flag = bool | UnsetType
Items = list[Any] | UnsetType
Table = dict[str, Any] | UnsetType
Queue = Literal["all", "one-at-a-time"] | UnsetType


class _Struct(msgspec.Struct, rename="camel", kw_only=True):
    """An object of settings.json: camelCase keys, every key optional."""


class Compaction(_Struct):
    enabled: Flag = UNSET
    reserve_tokens: Count = UNSET
    keep_recent_tokens: Count = UNSET
    model: Text = UNSET


class BranchSummary(_Struct):
    reserve_tokens: Count = UNSET
    skip_prompt: Flag = UNSET


class ProviderRetry(_Struct):
    timeout_ms: Count = UNSET
    max_retries: Count = UNSET
    max_retry_delay_ms: Count = UNSET


class Retry(_Struct):
    enabled: Flag = UNSET
    max_retries: Count = UNSET
    base_delay_ms: Count = UNSET
    max_delay_ms: Count = UNSET
    provider: ProviderRetry | UnsetType = UNSET


class ToolOutput(_Struct):
    max_lines: Count = UNSET
    max_bytes: Count = UNSET


class Mcp(_Struct):
    startup_timeout_ms: Count = UNSET
    connect_timeout_ms: Count = UNSET
    tool_timeout_ms: Count = UNSET
    tool_search_share: int | float | UnsetType = UNSET


class Sandbox(_Struct):
    enabled: Flag = UNSET
    network: Flag = UNSET
    writable_paths: Items = UNSET
    required: Flag = UNSET


class Permissions(_Struct):
    allow: Items = UNSET  # rules in Claude Code's syntax (tau_coding.permissions.rules)
    ask: Items = UNSET
    deny: Items = UNSET
    default_mode: Text = UNSET  # tau_coding.permissions.modes


class Checkpoints(_Struct):
    enabled: Flag = UNSET
    retention_days: int | float | UnsetType = UNSET
    max_file_bytes: Count = UNSET


class Subagents(_Struct):
    max_depth: Count = UNSET
    max_parallel: Count = UNSET
    max_turns: Count = UNSET
    max_tokens: Count = UNSET


class Tui(_Struct):
    fullscreen: Flag = UNSET  # the TUI takes the whole screen instead of writing into scrollback


class SettingsFile(_Struct):
    """Every key Tau reads from settings.json (Pi's names)."""

    default_provider: Text = UNSET
    default_model: Text = UNSET
    default_thinking_level: Literal["off", "minimal", "low", "medium", "high", "xhigh"] | UnsetType = UNSET
    hide_thinking_block: Flag = UNSET
    auto_title: Flag = (
        UNSET  # Tau's: name a session after its first exchange (modes/interactive/auto_title.py)
    )
    double_escape_action: Literal["tree", "fork", "rewind", "none"] | UnsetType = UNSET  # "rewind": Tau's
    theme: Text = UNSET
    quiet_startup: Flag = UNSET
    shell_path: Text = UNSET
    shell_command_prefix: Text = UNSET
    shell_env_passthrough: Items = UNSET  # credential variables commands may see after all
    steering_mode: Queue = UNSET
    follow_up_mode: Queue = UNSET
    enabled_models: Items = UNSET
    enable_skill_commands: Flag = UNSET
    skills: Items = UNSET
    prompts: Items = UNSET
    extensions: Items = UNSET
    themes: Items = UNSET
    packages: Items = UNSET
    tools: Items = UNSET
    transport: Text = UNSET
    compaction: Compaction | UnsetType = UNSET
    branch_summary: BranchSummary | UnsetType = UNSET
    retry: Retry | UnsetType = UNSET
    tool_output: ToolOutput | UnsetType = UNSET
    thinking_budgets: Table = UNSET
    terminal: Table = UNSET
    images: Table = UNSET
    markdown: Table = UNSET
    last_changelog_version: Text = UNSET
    collapse_changelog: Flag = UNSET
    enable_install_telemetry: Flag = UNSET  # Pi's; Tau sends no telemetry, so it changes nothing
    npm_command: Items = UNSET
    tree_filter_mode: Literal["default", "no-tools", "user-only", "labeled-only", "all"] | UnsetType = UNSET
    editor_padding_x: Count = UNSET
    autocomplete_max_visible: Count = UNSET
    show_hardware_cursor: Flag = UNSET
    warnings: Table = UNSET
    session_dir: Text = UNSET
    hooks: Table = UNSET  # shell hooks, Claude Code's schema (extensions/shell_hooks/config.py)
    hook_failure: Literal["open", "closed"] | UnsetType = UNSET
    disable_all_hooks: Flag = UNSET
    extension_timeout: int | float | UnsetType = UNSET  # seconds one extension handler may take
    mcp_servers: Table = UNSET  # MCP servers, Claude Code's format (tau_coding.mcp.config)
    mcp: Mcp | UnsetType = UNSET
    sandbox: Sandbox | UnsetType = UNSET  # the OS sandbox for bash (docs/sandbox.md)
    permissions: Permissions | UnsetType = UNSET
    checkpoints: Checkpoints | UnsetType = UNSET  # snapshots for /rewind (tau_coding.checkpoints)
    subagents: Subagents | UnsetType = UNSET  # the task tool's limits (tau_coding.subagents.limits)
    tui: Tui | UnsetType = UNSET  # the terminal UI (docs/tui.md)


# Settings that choose or run programs: only the user's file or a trusted project may set them.
# (A project's ``hooks`` are parsed apart from these settings, and only for a trusted project.)
# ``sessionDir`` too: a project must not send the user's conversations into a folder it chose;
# ``permissions`` too: a project must not allow itself commands or choose the yolo mode.
TRUSTED_ONLY = (
    "shellPath",
    "shellCommandPrefix",
    "shellEnvPassthrough",
    "npmCommand",
    "sessionDir",
    "permissions",
)
# Sandbox values an untrusted project may not set because they weaken it (it may strengthen it).
_SANDBOX_WEAKER: dict[str, object] = {"enabled": False, "network": True, "required": False}
_SANDBOX_WIDER = ("writablePaths", "unconfinedExtensions")  # any value of these needs trust
# Lists that add up across the user's file and the project's instead of the project's replacing.
_ADDITIVE = ("allow", "ask", "deny")
# Limits a project may tighten but not blank: a value <= 0 needs trust.
_POSITIVE_UNLESS_TRUSTED = ("toolOutput.maxLines", "toolOutput.maxBytes")
TRUST_HINT = "run `tau --trust-project` in it once to trust it"
NESTED_TOO_DEEPLY = "invalid JSON: nested too deeply"


@dataclass(frozen=True, slots=True)
class Settings:
    """Merged settings. ``get`` reads a dotted key; defaults live with the code that uses them."""

    values: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        node: Any = self.values
        for part in key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node


def read_json_object(path: Path, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    """A JSON object from ``path``; a missing file is empty, a bad one is a diagnostic and empty."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        diagnostics.append(Diagnostic("error", str(path), f"cannot read: {exc}"))
        return {}
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        diagnostics.append(
            Diagnostic("error", str(path), f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
        )
        return {}
    except RecursionError:
        diagnostics.append(Diagnostic("error", str(path), NESTED_TOO_DEEPLY))
        return {}
    if not isinstance(data, dict):
        diagnostics.append(
            Diagnostic("error", str(path), f"must hold a JSON object, not {type(data).__name__}")
        )
        return {}
    return data


@cache
def _declared(struct: type[msgspec.Struct]) -> dict[str, Any]:
    """A structure's JSON key -> its declared type (``X | UnsetType``)."""
    return {f.encode_name: f.type for f in msgspec.structs.fields(struct)}


@cache
def _field(struct: type[msgspec.Struct], name: str) -> Any:
    """The type the value of key ``name`` must have (UNSET, i.e. absent, removed), or None for an
    unknown key. Per key, since a file sets a few of some fifty keys and each union costs."""
    declared = _declared(struct).get(name)
    if declared is None:
        return None
    return Union[tuple(a for a in get_args(declared) if a is not UnsetType)]  # noqa: UP007


def _decode(
    data: Mapping[str, Any],
    struct: type[msgspec.Struct],
    source: str,
    diagnostics: list[Diagnostic],
    prefix: str = "",
) -> dict[str, Any]:
    """The keys of ``data`` whose values decode as ``struct`` says, as written in the file; one
    diagnostic per key that does not. Objects (``retry``, ``retry.provider``) key by key."""
    out: dict[str, Any] = {}
    for name, value in data.items():
        key = prefix + name
        kind = _field(struct, name)
        if kind is None:
            diagnostics.append(Diagnostic("warning", source, f"unknown setting {key!r}; ignored"))
        elif isinstance(kind, type) and issubclass(kind, msgspec.Struct):
            if isinstance(value, dict):
                out[name] = _decode(value, kind, source, diagnostics, key + ".")
            else:
                diagnostics.append(Diagnostic("error", source, f"{key} must be an object; ignored"))
        else:
            try:
                msgspec.convert(value, kind)
            except msgspec.ValidationError:
                diagnostics.append(
                    Diagnostic("error", source, f"{key} {_expected(kind)}, got {json.dumps(value)}; ignored")
                )
            else:
                out[name] = value
    return out


def _expected(kind: Any) -> str:
    """``must be a whole number`` / ``must be one of a, b`` for a field's type, in the words of
    the JSON the user wrote (not Python's type names)."""
    if get_origin(kind) is Literal:
        return "must be one of " + ", ".join(str(a) for a in get_args(kind))
    return "must be " + _name(kind)


_JSON_NAMES = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    str: "a string",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


def _name(kind: Any) -> str:
    origin = get_origin(kind)
    if origin is list or origin is dict:
        return _JSON_NAMES[origin]
    if isinstance(kind, type):
        return _JSON_NAMES.get(kind, kind.__name__)
    return " or ".join(_name(a) for a in get_args(kind))


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge for objects; anything else in ``override`` replaces."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def untrusted_project_view(
    project: dict[str, Any], source: str, diagnostics: list[Diagnostic]
) -> dict[str, Any]:
    """``project`` without what an untrusted project may not set (one warning names what was dropped)."""
    out = {key: value for key, value in project.items() if key not in TRUSTED_ONLY}
    dropped = [key for key in TRUSTED_ONLY if key in project]
    limits = out.get("toolOutput")
    if isinstance(limits, dict):
        kept = dict(limits)
        for key in _POSITIVE_UNLESS_TRUSTED:
            name = key.split(".", 1)[1]
            if isinstance(kept.get(name), int) and kept[name] <= 0:
                dropped.append(f"{key}={kept.pop(name)}")
        out["toolOutput"] = kept
    sandbox = out.get("sandbox")
    if isinstance(sandbox, dict):
        kept = {
            k: v for k, v in sandbox.items() if k not in _SANDBOX_WIDER and _SANDBOX_WEAKER.get(k, ...) != v
        }
        dropped += [f"sandbox.{k}" for k in sandbox if k not in kept]
        out["sandbox"] = kept
    if dropped:
        diagnostics.append(
            Diagnostic(
                "warning",
                source,
                f"{', '.join(dropped)} ignored: the project is not trusted; {TRUST_HINT}",
            )
        )
    return out


def load_settings(
    user_file: Path, project_file: Path, *, project_trusted: bool = False
) -> tuple[Settings, list[Diagnostic]]:
    """User settings with project settings merged over them. Unless ``project_trusted``, the
    project cannot set ``TRUSTED_ONLY`` keys, blank tool output or weaken the sandbox (see
    docs/security.md, docs/sandbox.md)."""
    diagnostics: list[Diagnostic] = []
    user = _decode(read_json_object(user_file, diagnostics), SettingsFile, str(user_file), diagnostics)
    project = _decode(
        read_json_object(project_file, diagnostics), SettingsFile, str(project_file), diagnostics
    )
    if not project_trusted:
        project = untrusted_project_view(project, str(project_file), diagnostics)
    merged = merge(user, project)
    if isinstance(user.get("permissions"), dict) and isinstance(project.get("permissions"), dict):
        both = dict(merged["permissions"])
        for key in _ADDITIVE:
            lists = [part["permissions"].get(key) for part in (user, project)]
            if any(isinstance(value, list) for value in lists):
                both[key] = [item for value in lists if isinstance(value, list) for item in value]
        merged["permissions"] = both
    return Settings(merged), diagnostics
