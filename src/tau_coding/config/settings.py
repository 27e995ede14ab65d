"""settings.json: user settings, then project settings merged over them.

Validation is a small typed table rather than a pydantic model: importing pydantic and
building one model costs ~200 ms on these machines, most of the 300 ms budget of a whole
``tau -p`` run. A wrong type or a malformed file is a one-line diagnostic and the default is
used; an unknown key is a warning (it may belong to a newer Tau or to Pi).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tau_coding.common.diagnostics import Diagnostic

# key -> (expected python type(s), allowed values or None). Nested objects use dotted keys.
_SCHEMA: dict[str, tuple[type | tuple[type, ...], tuple[Any, ...] | None]] = {
    "defaultProvider": (str, None),
    "defaultModel": (str, None),
    "defaultThinkingLevel": (str, ("off", "minimal", "low", "medium", "high", "xhigh")),
    "hideThinkingBlock": (bool, None),
    "theme": (str, None),
    "quietStartup": (bool, None),
    "shellPath": (str, None),
    "shellCommandPrefix": (str, None),
    "shellEnvPassthrough": (list, None),  # credential variables commands may see after all
    "steeringMode": (str, ("all", "one-at-a-time")),
    "followUpMode": (str, ("all", "one-at-a-time")),
    "enabledModels": (list, None),
    "enableSkillCommands": (bool, None),
    "skills": (list, None),
    "prompts": (list, None),
    "extensions": (list, None),
    "themes": (list, None),
    "packages": (list, None),
    "tools": (list, None),
    "transport": (str, None),
    "compaction.enabled": (bool, None),
    "compaction.reserveTokens": (int, None),
    "compaction.keepRecentTokens": (int, None),
    "compaction.model": (str, None),
    "branchSummary.reserveTokens": (int, None),
    "retry.enabled": (bool, None),
    "retry.maxRetries": (int, None),
    "retry.baseDelayMs": (int, None),
    "retry.maxDelayMs": (int, None),
    "retry.provider.timeoutMs": (int, None),
    "retry.provider.maxRetries": (int, None),
    "retry.provider.maxRetryDelayMs": (int, None),
    "toolOutput.maxLines": (int, None),
    "toolOutput.maxBytes": (int, None),
    "thinkingBudgets": (dict, None),
    "terminal": (dict, None),
    "images": (dict, None),
    "markdown": (dict, None),
    "lastChangelogVersion": (str, None),
    "hooks": (dict, None),  # shell hooks, Claude Code's schema (tau_coding.extensions.shell_hooks.config)
    "hookFailure": (str, ("open", "closed")),
    "disableAllHooks": (bool, None),
    "extensionTimeout": ((int, float), None),  # seconds any one extension handler may take
    "mcpServers": (dict, None),  # MCP servers, Claude Code's format (tau_coding.mcp.config)
    "mcp.startupTimeoutMs": (int, None),
    "mcp.connectTimeoutMs": (int, None),
    "mcp.toolTimeoutMs": (int, None),
    "mcp.toolSearchShare": ((int, float), None),
}
_OBJECTS = {key.rsplit(".", 1)[0] for key in _SCHEMA if "." in key}

# Settings that choose or run programs: only the user's file or a trusted project may set them.
# (A project's ``hooks`` are parsed apart from these settings, and only for a trusted project.)
TRUSTED_ONLY = ("shellPath", "shellCommandPrefix", "shellEnvPassthrough", "npmCommand")
# Limits a project may tighten but not blank: a value <= 0 needs trust.
_POSITIVE_UNLESS_TRUSTED = ("toolOutput.maxLines", "toolOutput.maxBytes")
TRUST_HINT = "run `tau --trust-project` in it once to trust it"
NESTED_TOO_DEEPLY = "invalid JSON: nested too deeply"
_OBJECTS |= {key.split(".")[0] for key in _OBJECTS}


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


def _check(
    data: dict[str, Any], source: str, diagnostics: list[Diagnostic], prefix: str = ""
) -> dict[str, Any]:
    """Drop (with a diagnostic) values of the wrong type; warn about unknown keys. Objects
    (``retry``, ``retry.provider``) are checked key by key."""
    out: dict[str, Any] = {}
    for name, value in data.items():
        key = prefix + name
        if key in _OBJECTS:
            if not isinstance(value, dict):
                diagnostics.append(Diagnostic("error", source, f"{key} must be an object; ignored"))
                continue
            out[name] = _check(value, source, diagnostics, key + ".")
        elif _valid(key, value, source, diagnostics):
            out[name] = value
    return out


def _valid(key: str, value: Any, source: str, diagnostics: list[Diagnostic]) -> bool:
    rule = _SCHEMA.get(key)
    if rule is None:
        diagnostics.append(Diagnostic("warning", source, f"unknown setting {key!r}; ignored"))
        return False
    kind, allowed = rule
    if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        diagnostics.append(
            Diagnostic("error", source, f"{key} must be a {names}, got {json.dumps(value)}; ignored")
        )
        return False
    if allowed is not None and value not in allowed:
        options = ", ".join(str(a) for a in allowed)
        diagnostics.append(
            Diagnostic("error", source, f"{key} must be one of {options}, got {value!r}; ignored")
        )
        return False
    return True


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
    project cannot set ``TRUSTED_ONLY`` keys or blank tool output (see docs/security.md)."""
    diagnostics: list[Diagnostic] = []
    user = _check(read_json_object(user_file, diagnostics), str(user_file), diagnostics)
    project = _check(read_json_object(project_file, diagnostics), str(project_file), diagnostics)
    if not project_trusted:
        project = untrusted_project_view(project, str(project_file), diagnostics)
    return Settings(merge(user, project)), diagnostics
