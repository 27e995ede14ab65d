"""Ctrl+G: edit the prompt in the user's own editor ($VISUAL, else $EDITOR).

The text goes to a temporary ``.md`` file, the editor runs on it with the terminal handed
over, and whatever the file holds afterwards becomes the prompt (one trailing newline, which
most editors add, is dropped). A failing editor leaves the prompt as it was.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Mapping, Sequence


class ExternalEditorError(RuntimeError):
    """The editor is not configured or failed; the message is one line."""


def editor_command(environ: Mapping[str, str]) -> list[str]:
    for name in ("VISUAL", "EDITOR"):
        value = environ.get(name, "").strip()
        if value:
            try:
                return shlex.split(value)
            except ValueError as exc:
                raise ExternalEditorError(f"${name} cannot be parsed: {exc}") from exc
    raise ExternalEditorError("Set $VISUAL or $EDITOR to edit the prompt in your editor.")


def edit_text(text: str, command: Sequence[str]) -> str:
    """Run ``command <file>`` on ``text`` and return the file's contents afterwards."""
    handle, name = tempfile.mkstemp(prefix="tau-prompt-", suffix=".md")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        try:
            done = subprocess.run([*command, name], check=False)
        except OSError as exc:
            raise ExternalEditorError(f"cannot run {command[0]}: {exc.strerror or exc}") from exc
        if done.returncode != 0:
            raise ExternalEditorError(f"{command[0]} exited with status {done.returncode}; prompt unchanged")
        with open(name, encoding="utf-8", errors="replace") as edited:
            result = edited.read()
    finally:
        os.unlink(name)
    return result[:-1] if result.endswith("\n") and not text.endswith("\n") else result
