"""The session's PermissionGate, from the command line, settings.json and the frontend."""

from __future__ import annotations

from collections.abc import Callable

from tau_coding.config.paths import TauPaths
from tau_coding.config.permission_rules import RuleFileError, add_allow_rule
from tau_coding.config.settings import Settings
from tau_coding.permissions.gate import PermissionGate
from tau_coding.permissions.modes import HEADLESS_DEFAULT, INTERACTIVE_DEFAULT, known_names, parse_mode
from tau_coding.permissions.paths import Places
from tau_coding.permissions.rules import RuleSet, invalid_rules


def permission_gate(
    flag: str | None, can_ask: bool, settings: Settings, paths: TauPaths, warn: Callable[[str], object]
) -> PermissionGate:
    """The session's gate: rules from settings, the mode from the flag, the setting or the
    frontend (``ask`` where someone can be asked, ``workspace`` where no one can)."""
    section = settings.get("permissions")
    section = section if isinstance(section, dict) else {}
    for problem in invalid_rules(section):
        warn(problem)
    mode = parse_mode(flag) if flag else None
    if flag and mode is None:
        raise ValueError(f"unknown permission mode {flag!r}; known modes: {known_names()}")
    configured = section.get("defaultMode")
    if mode is None and isinstance(configured, str):
        mode = parse_mode(configured)
        if mode is None:
            warn(f"permissions.defaultMode: unknown mode {configured!r}; known modes: {known_names()}")
    if mode is None:
        mode = INTERACTIVE_DEFAULT if can_ask else HEADLESS_DEFAULT

    def save_rule(rule: str) -> None:
        try:
            add_allow_rule(paths.project_settings, rule)
        except RuleFileError as exc:
            warn(str(exc))

    places = Places(str(paths.cwd), str(paths.home), str(paths.tau_home))
    # sandboxed: whether bash runs confined; the sandbox (tau_coding.sandbox) answers it once merged.
    return PermissionGate(rules=RuleSet.from_settings(section), mode=mode, places=places, save_rule=save_rule)
