"""The ``hooks`` setting, in Claude Code's shape::

    {"hooks": {"PreToolUse": [{"matcher": "Bash|Write",
                               "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30}]}]},
     "hookFailure": "open"}

``matcher`` is a regular expression matched against the whole tool name (Claude Code's
name such as ``Bash``, or Tau's such as ``bash``); empty, missing or ``*`` matches every
tool, and is ignored by events that concern no tool. ``timeout`` is in seconds (default
60). A hook that fails (exit status other than 0 and 2, a timeout, or no way to start it)
*fails open* by default, as in Claude Code: it is reported and the action goes on. With
``"hookFailure": "closed"`` (globally) or ``"failure": "closed"`` on one hook, a failure
blocks the action instead (the tool call, the prompt). Exit status 2 always blocks.
User hooks come first, then a trusted project's; all that match run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tau_coding.common.diagnostics import Diagnostic

EVENTS = (
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "Stop",
)
DEFAULT_TIMEOUT = 60.0
FailureMode = Literal["open", "closed"]


@dataclass(frozen=True)
class CommandHook:
    command: str
    timeout: float = DEFAULT_TIMEOUT
    fail_closed: bool = False
    source: str = ""


@dataclass(frozen=True)
class MatcherGroup:
    matcher: re.Pattern[str] | None  # None: every tool
    hooks: tuple[CommandHook, ...]

    def matches(self, *names: str) -> bool:
        return self.matcher is None or any(self.matcher.fullmatch(n) for n in names)


@dataclass
class HookConfig:
    events: dict[str, list[MatcherGroup]] = field(default_factory=dict)

    def hooks_for(self, event: str, *tool_names: str) -> list[CommandHook]:
        out: list[CommandHook] = []
        for group in self.events.get(event, ()):
            if not tool_names or group.matches(*tool_names):
                out.extend(group.hooks)
        return out

    def __bool__(self) -> bool:
        return any(self.events.values())


def parse_hooks(
    settings: Mapping[str, Any], source: str, config: HookConfig, diagnostics: list[Diagnostic]
) -> None:
    """Add the hooks of one settings object to ``config``; every bad part is a diagnostic."""
    if settings.get("disableAllHooks") is True:
        return
    raw = settings.get("hooks")
    if raw is None:
        return
    mode = settings.get("hookFailure", "open")
    if mode not in ("open", "closed"):
        diagnostics.append(Diagnostic("error", source, f"hookFailure must be open or closed, got {mode!r}"))
        mode = "open"
    if not isinstance(raw, dict):
        diagnostics.append(Diagnostic("error", source, "hooks must be an object; ignored"))
        return
    for event, groups in raw.items():
        if event not in EVENTS:
            diagnostics.append(
                Diagnostic("warning", source, f"hooks: event {event!r} is not supported; ignored")
            )
            continue
        if not isinstance(groups, list):
            diagnostics.append(Diagnostic("error", source, f"hooks.{event} must be a list; ignored"))
            continue
        for index, group in enumerate(groups):
            parsed = _group(group, f"{source}: hooks.{event}[{index}]", mode == "closed", diagnostics)
            if parsed is not None:
                config.events.setdefault(event, []).append(parsed)


def _group(raw: Any, where: str, fail_closed: bool, diagnostics: list[Diagnostic]) -> MatcherGroup | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("hooks"), list):
        diagnostics.append(Diagnostic("error", where, 'must be an object with a "hooks" list; ignored'))
        return None
    pattern = raw.get("matcher")
    matcher: re.Pattern[str] | None = None
    if isinstance(pattern, str) and pattern not in ("", "*"):
        try:
            matcher = re.compile(pattern)
        except re.error as exc:
            diagnostics.append(Diagnostic("error", where, f"matcher {pattern!r} is not a valid regex: {exc}"))
            return None
    elif pattern is not None and not isinstance(pattern, str):
        diagnostics.append(Diagnostic("error", where, "matcher must be a string; ignored"))
        return None
    hooks: list[CommandHook] = []
    for index, hook in enumerate(raw["hooks"]):
        command = hook.get("command") if isinstance(hook, dict) else None
        kind = hook.get("type", "command") if isinstance(hook, dict) else None
        if kind != "command" or not isinstance(command, str) or not command.strip():
            diagnostics.append(
                Diagnostic(
                    "error", f"{where}.hooks[{index}]", 'only {"type": "command", "command": "..."} hooks run'
                )
            )
            continue
        timeout = hook.get("timeout", DEFAULT_TIMEOUT)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            diagnostics.append(Diagnostic("error", f"{where}.hooks[{index}]", "timeout must be seconds > 0"))
            timeout = DEFAULT_TIMEOUT
        failure = hook.get("failure")
        closed = fail_closed if failure not in ("open", "closed") else failure == "closed"
        hooks.append(CommandHook(command, float(timeout), closed, where))
    return MatcherGroup(matcher, tuple(hooks)) if hooks else None
