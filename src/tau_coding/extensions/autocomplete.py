"""Completions an extension adds to the TUI's editor (``tau.ui.add_autocomplete_provider``).

A provider is asked, as the user types, with the editor's current line and the cursor's column
in it. It answers ``None`` to leave the line to the providers added before it (and at the bottom
to Tau's own ``/`` and ``@`` completion), or ``Suggestions``: the text just before the cursor
they replace (``prefix``) and what to offer. The newest provider is asked first, so stacking
works as Pi's wrappers do when each one delegates what it does not recognise.

Providers are plain synchronous functions: they run on every keystroke in the TUI, so they
should answer from data they already hold (load it in ``session_start``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One entry of the menu: ``value`` is inserted; ``label`` (default: the value) and
    ``description`` are what the menu shows."""

    value: str
    label: str = ""
    description: str = ""


@dataclass(frozen=True, slots=True)
class Suggestions:
    """``items`` replace ``prefix``, the text that ends at the cursor (it must, or the answer
    is ignored); an empty ``items`` closes the menu without asking Tau's own completion."""

    prefix: str
    items: Sequence[Suggestion]


# (line, column) -> Suggestions, or None: not mine, ask the next provider
AutocompleteProvider: TypeAlias = Callable[[str, int], Suggestions | None]
