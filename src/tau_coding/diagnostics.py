"""Diagnostic: a problem found while loading something the user wrote; reported, never fatal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: Literal["warning", "error"]
    source: str  # usually a file path
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.source}: {self.message}"
