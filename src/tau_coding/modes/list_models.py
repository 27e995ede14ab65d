"""``tau --list-models [search]``: a table of models, in Pi's columns and order.

Pi's layout is kept so that scripts that read Pi's table read Tau's: ``provider``, ``model``,
``context``, ``max-out``, ``thinking``, ``images``, two spaces apart, sorted by provider then
id; token counts as ``200K`` / ``1M`` / ``32.8K``. The search is fuzzy: every word of it must
appear in ``provider id`` as a subsequence (``son45`` finds ``claude-sonnet-4-5``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from tau_ai.model import Model

_HEADERS = ("provider", "model", "context", "max-out", "thinking", "images")


def token_count(n: int) -> str:
    """``200000`` → ``200K``, ``1000000`` → ``1M``, ``32768`` → ``32.8K`` (as Pi prints them)."""
    for size, unit in ((1_000_000, "M"), (1_000, "K")):
        if n >= size:
            value = n / size
            return f"{value:.0f}{unit}" if value == int(value) else f"{value:.1f}{unit}"
    return str(n)


def matches(search: str, text: str) -> bool:
    """Whether each word of ``search`` is a case-insensitive subsequence of ``text``."""
    haystack = text.lower()
    for word in search.lower().split():
        at = 0
        for char in word:
            at = haystack.find(char, at) + 1
            if at == 0:
                return False
    return True


def list_models(
    search: str, models: Sequence[Model], out: TextIO, err: TextIO, *, everything: bool = False
) -> int:
    """Print the table of ``models`` matching ``search``; always 0, as in Pi.

    ``models`` are those usable now (a key, a login or a local server) unless ``everything``.
    """
    if not models:
        out.write(
            "No models available: set an API key (e.g. ANTHROPIC_API_KEY), add a local server in "
            "models.json, or run tau --list-models --all to see the catalogue\n"
            if not everything
            else "No models known\n"
        )
        return 0
    rows = sorted(
        (m for m in models if matches(search, f"{m.provider} {m.id}")), key=lambda m: (m.provider, m.id)
    )
    if not rows:
        out.write(f'No models matching "{search}"\n')
        return 0
    table = [
        (
            m.provider,
            m.id,
            token_count(m.context_window),
            token_count(m.max_tokens),
            "yes" if m.reasoning else "no",
            "yes" if m.supports_images else "no",
        )
        for m in rows
    ]
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(_HEADERS)]
    for row in (_HEADERS, *table):
        out.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) + "\n")
    return 0
