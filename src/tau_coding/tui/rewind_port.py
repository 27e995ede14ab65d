"""The vocabulary of /rewind (and of Esc Esc when ``doubleEscapeAction`` is "rewind"): the
checkpoints a session offers and the four ways back. ``RewindPort`` (tui/port.py) uses it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

RewindChoice = Literal["both", "conversation", "code", "summarize"]
# The picker's four choices, in the order offered.
REWIND_CHOICES: tuple[tuple[RewindChoice, str], ...] = (
    ("both", "Restore code and conversation"),
    ("conversation", "Restore conversation only"),
    ("code", "Restore code only"),
    ("summarize", "Summarise from here (compact what follows)"),
)
DoubleEscapeAction = Literal["tree", "fork", "rewind", "none"]


@dataclass(frozen=True, slots=True)
class RewindRow:
    """One checkpoint: ``label`` is the prompt that followed it (or "before rewind"), and the
    counts are of what changed in the files since."""

    checkpoint_id: str
    label: str
    timestamp: str
    files: int
    added: int
    removed: int


@dataclass(frozen=True, slots=True)
class RewindPoints:
    rows: Sequence[RewindRow] = ()
    error: str | None = None  # why there are none to show (checkpoints off, git missing)


__all__ = ["REWIND_CHOICES", "DoubleEscapeAction", "RewindChoice", "RewindPoints", "RewindRow"]
