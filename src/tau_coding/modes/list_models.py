"""``tau --list-models [search]``: a table of models, in Pi's columns and order.

Pi's layout is kept so that scripts that read Pi's table read Tau's: ``provider``, ``model``,
``context``, ``max-out``, ``thinking``, ``images``, two spaces apart, sorted by provider then
id; token counts as ``200K`` / ``1M`` / ``32.8K``. The search is fuzzy: every word of it must
appear in ``provider id`` as a subsequence (``son45`` finds ``claude-sonnet-4-5``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import TextIO

    from tau_ai.model import Model

Row = tuple[str, str, str, str, str, str]

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
    return print_rows(search, table_rows(models), out)


def table_rows(models: Iterable[Model]) -> list[Row]:
    """The table's rows of ``models`` (its columns as printed), sorted by provider then id."""
    counts: dict[int, str] = {}  # a catalogue repeats a few window sizes: format each once

    def count(n: int) -> str:
        text = counts.get(n)
        if text is None:
            text = counts[n] = token_count(n)
        return text

    return [
        (
            m.provider,
            m.id,
            count(m.context_window),
            count(m.max_tokens),
            "yes" if m.reasoning else "no",
            "yes" if "image" in m.input else "no",
        )
        for m in sorted(models, key=_by_provider_and_id)
    ]


def print_rows(search: str, rows: Sequence[Row], out: TextIO) -> int:
    """Print the table of the ``rows`` (``table_rows``) matching ``search``; always 0."""
    words = search.lower().split()
    table = [row for row in rows if matches(search, f"{row[0]} {row[1]}")] if words else rows
    if not table:
        out.write(f'No models matching "{search}"\n')
        return 0
    widths = [
        max(len(h), *map(len, column)) for h, column in zip(_HEADERS, zip(*table, strict=True), strict=True)
    ]
    line = "  ".join(f"{{:<{width}}}" for width in widths).format
    out.write("\n".join([line(*_HEADERS), *(line(*row) for row in table)]) + "\n")
    return 0


def _by_provider_and_id(model: Model) -> tuple[str, str]:
    return model.provider, model.id
