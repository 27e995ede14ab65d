"""The session's PermissionGate, from the command line, settings.json and the frontend."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tau_coding.config.paths import TauPaths
from tau_coding.config.permission_rules import RuleFileError, add_allow_rule
from tau_coding.config.settings import Settings
from tau_coding.permissions.gate import PermissionGate
from tau_coding.permissions.modes import HEADLESS_DEFAULT, INTERACTIVE_DEFAULT, known_names, parse_mode
from tau_coding.permissions.paths import Places
from tau_coding.permissions.rules import RuleSet, invalid_rules
from tau_coding.sandbox.policy import SandboxPolicy, sandbox_policy
from tau_coding.sandbox.probe import sandbox_availability


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

    def preview(tool: str, args: Mapping[str, Any]) -> str | None:
        from tau_coding.tools.change_preview import change_preview

        return change_preview(paths.cwd, tool, args)

    places = Places(str(paths.cwd), str(paths.home), str(paths.tau_home))
    rules = RuleSet.from_settings(section)
    gate = PermissionGate(rules=rules, mode=mode, places=places, save_rule=save_rule, preview=preview)
    if not can_ask:
        gate.unasked = warn
    return gate


def bash_sandbox(
    settings: Settings, paths: TauPaths, gate: PermissionGate, notify: Callable[[str], object]
) -> Callable[[], SandboxPolicy | None] | None:
    """The sandbox each bash command runs in: ``sandbox.*``'s, or, in the ``workspace`` mode
    (which runs commands confined rather than asking), a forced one. The gate is told whether
    commands really run confined, so ``workspace`` lets bash run only where bwrap can start.
    None: nothing confines commands (neither ``sandbox.enabled`` nor the ``workspace`` mode)."""

    def policy(forced: bool) -> SandboxPolicy | None:
        return sandbox_policy(
            settings.get, paths.cwd, home=paths.home, tau_home=paths.tau_home, forced=forced, notify=notify
        )

    configured = policy(False)
    if configured is None and gate.mode != "workspace":
        # Nothing confines commands, so the bash tool offers no way out of a sandbox; a later
        # switch to workspace (RPC set_permission_mode) then denies commands no rule allows.
        gate.sandboxed = lambda: False
        return None
    confined = configured or policy(True)

    def in_force() -> SandboxPolicy | None:
        return confined if gate.mode == "workspace" else configured

    gate.sandboxed = lambda: in_force() is not None and sandbox_availability().program is not None
    return in_force
