"""Shell hooks in a real session: scripts written to tmp_path, settings parsed like settings.json."""

from __future__ import annotations

import stat
import textwrap
from pathlib import Path
from typing import Any

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.extensions.shell_hooks.config import HookConfig, parse_hooks
from tau_coding.extensions.shell_hooks.extension import ShellHooks, handler_timeout
from tau_coding.permissions.gate import PermissionGate
from tests.coding.extensions.helpers import Rig, make_rig


def script(directory: Path, name: str, body: str) -> Path:
    """An executable script (its shebang says bash or python3)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(textwrap.dedent(body).lstrip())
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def hook(event: str, command: str | Path, matcher: str | None = None, **extra: Any) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": str(command), **extra}]}
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


def settings(*hooks: dict[str, Any], **top: Any) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for one in hooks:
        for event, groups in one.items():
            merged.setdefault(event, []).extend(groups)
    return {"hooks": merged, **top}


def hooked_rig(
    tmp_path: Path, provider: Any, raw_settings: dict[str, Any], gate: PermissionGate | None = None
) -> Rig:
    config = HookConfig()
    diagnostics: list[Diagnostic] = []
    parse_hooks(raw_settings, "settings.json", config, diagnostics)
    assert not diagnostics, diagnostics
    rig = make_rig(tmp_path, provider, gate=gate)
    rig.host.add_builtin("hooks", ShellHooks(config, tmp_path).activate, timeout=handler_timeout(config))
    return rig
