"""What a submitted line is: a prompt, a ``/command``, or a ``!``/``!!`` shell command. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Submission:
    kind: Literal["prompt", "command", "bash"]
    text: str
    name: str = ""  # command name without the slash
    args: str = ""  # the rest of a command line, or the shell command
    exclude_from_context: bool = False  # !!cmd


def classify(text: str) -> Submission:
    """``/name args`` is a command candidate (the caller decides whether anyone knows it);
    ``!cmd`` and ``!!cmd`` are shell commands; everything else is a prompt."""
    stripped = text.strip()
    if stripped.startswith("!!") and stripped[2:].strip():
        return Submission("bash", text, args=stripped[2:].strip(), exclude_from_context=True)
    if stripped.startswith("!") and stripped[1:].strip():
        return Submission("bash", text, args=stripped[1:].strip())
    if stripped.startswith("/") and len(stripped) > 1 and "\n" not in stripped:
        name, _, args = stripped[1:].partition(" ")
        if name and "/" not in name:
            return Submission("command", text, name=name.lower(), args=args.strip())
    return Submission("prompt", text)
