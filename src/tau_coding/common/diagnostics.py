"""Diagnostic: one problem found while loading something the user wrote (settings, resources).

Loaders never raise for bad files; they return what they could load plus a list of these, so
the app can show them (one line each) and carry on.
"""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

    Severity: TypeAlias = Literal["warning", "error"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """``error``: the resource was not loaded. ``warning``: it was loaded, possibly altered."""

    severity: Severity
    source: str
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.source}: {self.message}"


def warning_line(message: str) -> str:
    """``message`` as one stderr line: a Diagnostic already says warning or error."""
    labelled = message.startswith(("warning: ", "error: "))
    return f"tau: {message}\n" if labelled else f"tau: warning: {message}\n"
