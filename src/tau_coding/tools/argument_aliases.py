"""Argument names other agents' tools use, renamed to ours before validation (pure).

Models trained on other harnesses send ``file_path`` for ``path``, ``old_string`` for
``oldText``, ``cmd`` for ``command``. Each built-in tool takes ``renaming(parameters)`` as its
``prepare_arguments``: an alias is renamed only when the tool has the property it stands for and
the call did not give that property itself, so a call in our own names is untouched and nothing
the model meant is dropped. Items of an ``edits`` array get the same treatment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# alias -> our name; the names Claude Code, Codex, Gemini CLI and OpenHands tools use.
ALIASES: Mapping[str, str] = {
    "file_path": "path",
    "filePath": "path",
    "filepath": "path",
    "file": "path",
    "filename": "path",
    "absolute_path": "path",
    "target_file": "path",
    "directory": "path",
    "dir_path": "path",
    "old_string": "oldText",
    "old_str": "oldText",
    "oldString": "oldText",
    "old_text": "oldText",
    "new_string": "newText",
    "new_str": "newText",
    "newString": "newText",
    "new_text": "newText",
    "contents": "content",
    "file_text": "content",
    "cmd": "command",
    "query": "pattern",
    "regex": "pattern",
}


def _renamed(args: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
    if not any(key in ALIASES for key in args):
        return args
    out = dict(args)
    for alias, ours in ALIASES.items():
        if alias in out and ours in names and ours not in out and alias not in names:
            out[ours] = out.pop(alias)
    return out


def renaming(parameters: Mapping[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A ``prepare_arguments`` for a tool whose JSON Schema is ``parameters``."""
    names = frozenset(parameters.get("properties", {}))
    edits = parameters.get("properties", {}).get("edits", {}).get("items", {})
    item_names = frozenset(edits.get("properties", {})) if isinstance(edits, Mapping) else frozenset()

    def prepare(args: dict[str, Any]) -> dict[str, Any]:
        args = _renamed(args, names)
        items = args.get("edits")
        if item_names and isinstance(items, list):
            renamed_items = [_renamed(i, item_names) if isinstance(i, dict) else i for i in items]
            if renamed_items != items:
                args = {**args, "edits": renamed_items}
        return args

    return prepare
