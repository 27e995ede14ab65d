"""Adding an allow rule to a settings.json, as the approval dialog's "add to the project" does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tau_agent.atomic_write import atomic_write_bytes


class RuleFileError(OSError):
    """The settings file could not be read as a JSON object or written; nothing was changed."""


def add_allow_rule(settings_file: Path, rule: str) -> bool:
    """Append ``rule`` to ``permissions.allow`` in ``settings_file`` (created if missing),
    keeping every other key; the file is replaced atomically. False if it was there already.
    Raises RuleFileError (one line) when the file is not a JSON object or cannot be written."""
    try:
        text = settings_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFileError(f"{settings_file}: cannot read: {exc}") from exc
    try:
        data: Any = json.loads(text) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        raise RuleFileError(f"{settings_file}: not valid JSON, so the rule was not added") from exc
    if not isinstance(data, dict):
        raise RuleFileError(f"{settings_file}: must hold a JSON object, so the rule was not added")
    section = data.get("permissions")
    if not isinstance(section, dict):
        section = {}
    allow = section.get("allow")
    allow = list(allow) if isinstance(allow, list) else []
    if rule in allow:
        return False
    data["permissions"] = {**section, "allow": [*allow, rule]}
    try:
        settings_file.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(settings_file, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    except OSError as exc:
        raise RuleFileError(f"{settings_file}: cannot write: {exc.strerror or exc}") from exc
    return True
