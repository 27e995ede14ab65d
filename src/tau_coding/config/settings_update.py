"""Changing keys of the user's settings.json in place, as Pi does when a choice is made in the UI.

The file is read, the given keys are replaced (the rest, unknown keys included, stay as they
were) and it is written atomically. A dotted key (``compaction.enabled``) sets that key inside
its object, creating the object if needed (Pi's keys have no dots of their own). A file that is
not a JSON object is left alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from tau_agent.atomic_write import atomic_write_bytes


def update_settings(path: Path, changes: Mapping[str, object]) -> str | None:
    """Set ``changes`` in the settings file at ``path`` (created if missing); None when done,
    else one line saying why nothing was written."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = "{}"
    except (OSError, UnicodeDecodeError) as exc:
        return f"{path}: cannot read: {exc}; settings not saved"
    try:
        data = json.loads(text) if text.strip() else {}
    except (json.JSONDecodeError, RecursionError):
        return f"{path}: invalid JSON; settings not saved (fix the file to keep your choices)"
    if not isinstance(data, dict):
        return f"{path}: not a JSON object; settings not saved"
    if all(_get(data, key) == value for key, value in changes.items()):
        return None
    for key, value in changes.items():
        *parents, last = key.split(".")
        node = data
        for part in parents:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[last] = value
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    except OSError as exc:
        return f"{path}: cannot write: {exc}; settings not saved"
    return None


def _get(data: dict[str, object], key: str) -> object:
    node: object = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node
