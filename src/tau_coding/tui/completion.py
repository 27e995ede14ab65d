"""Completion candidates for the prompt editor: ``/`` commands, ``@`` files, Tab paths. Pure.

Each function returns ``Candidate``s that say which span of the editor's text to replace and
with what; the editor widget only displays them and applies the chosen one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tau_coding.tui.port import CommandSpec

MAX_RESULTS = 50


@dataclass(frozen=True, slots=True)
class Candidate:
    """Replace ``text[start:end]`` with ``insert``; ``label``/``description`` are what the menu shows."""

    start: int
    end: int
    insert: str
    label: str
    description: str = ""
    submit: bool = False  # Enter on it should also send (a command that takes no argument)


# Another source of candidates (an extension's): (line, column) -> candidates, or None when the
# line is not its to complete (the next source is asked).
Completer = Callable[[str, int], list[Candidate] | None]


def token_at(text: str, cursor: int) -> tuple[int, str]:
    """The whitespace-delimited word ending at ``cursor`` and where it starts."""
    start = cursor
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return start, text[start:cursor]


def fuzzy_score(query: str, candidate: str) -> int | None:
    """Higher is better; None when ``query``'s characters are not in ``candidate`` in order.

    A case-insensitive subsequence match is the floor; consecutive runs, matches at word
    starts (after ``/``, ``_``, ``-``, ``.``), matches inside the file name rather than its
    folders, and whole-substring matches score higher; shorter candidates break ties.
    """
    if not query:
        return 0
    q, c = query.lower(), candidate.lower()
    best = _subsequence(q, c, 0)
    if best is None:
        return None
    base = c.rfind("/") + 1
    in_name = _subsequence(q, c, base) if base else None
    if in_name is not None:
        best = max(best, in_name + 50)
    at = c.rfind(q)
    if at >= 0:
        bonus = (50 if at >= base else 0) + (20 if at == 0 or c[at - 1] in _WORD_BREAKS else 0)
        best = max(best, 100 + 10 * len(q) + bonus)
    return best * 100 - len(c)


_WORD_BREAKS = "/_-. "


def _subsequence(q: str, c: str, start: int) -> int | None:
    score, pos, run = 0, start, 0
    for ch in q:
        found = c.find(ch, pos)
        if found < 0:
            return None
        run = run + 1 if found == pos and pos > start else 0
        score += 1 + 3 * run
        if found == 0 or c[found - 1] in _WORD_BREAKS:
            score += 4
        pos = found + 1
    return score


def command_candidates(text: str, commands: Sequence[CommandSpec]) -> list[Candidate]:
    """When the editor holds only ``/partial`` (no space yet): matching commands, prefix matches first."""
    if not text.startswith("/") or any(ch.isspace() for ch in text):
        return []
    query = text[1:].lower()
    scored: list[tuple[int, int, CommandSpec]] = []
    for order, spec in enumerate(commands):
        name = spec.name.lower()
        if name.startswith(query):
            scored.append((0, order, spec))
        elif (score := fuzzy_score(query, name)) is not None:
            scored.append((1, -score, spec))
    scored.sort(key=lambda entry: (entry[0], entry[1]))
    return [
        Candidate(0, len(text), f"/{spec.name} ", f"/{spec.name}", _describe(spec), not spec.argument_hint)
        for _, _, spec in scored[:MAX_RESULTS]
    ]


def _describe(spec: CommandSpec) -> str:
    return f"{spec.argument_hint}  {spec.description}".strip() if spec.argument_hint else spec.description


def argument_candidates(text: str, command: str, values: Iterable[str]) -> list[Candidate]:
    """``/command partial`` -> values matching ``partial`` (models for /model, levels for /thinking).

    Enter on one runs the command with it."""
    prefix = f"/{command} "
    if not text.startswith(prefix):
        return []
    query = text[len(prefix) :]
    scored = [(score, v) for v in values if (score := fuzzy_score(query, v)) is not None]
    scored.sort(key=lambda entry: -entry[0])
    return [Candidate(len(prefix), len(text), v, v, submit=True) for _, v in scored[:MAX_RESULTS]]


def file_candidates(text: str, cursor: int, files: Sequence[str]) -> list[Candidate]:
    """When the word at the cursor starts with ``@``: project files fuzzily matching the rest."""
    start, word = token_at(text, cursor)
    if not word.startswith("@"):
        return []
    query = word[1:]
    scored = [(score, f) for f in files if (score := fuzzy_score(query, f)) is not None]
    scored.sort(key=lambda entry: -entry[0])
    return [Candidate(start, cursor, f"@{f} ", f"@{f}") for _, f in scored[:MAX_RESULTS]]


def path_candidates(text: str, cursor: int, cwd: Path, home: str | None = None) -> list[Candidate]:
    """Tab: entries of the folder named by the word at the cursor that start with its last part.

    Understands ``~/``, ``./``, ``../``, absolute paths, a leading ``@``; folders get a trailing ``/``.
    """
    start, word = token_at(text, cursor)
    lead = "@" if word.startswith("@") else ""
    word = word[len(lead) :]
    head, _, stem = word.rpartition("/")
    folder_text = head + "/" if "/" in word else ""
    home = home if home is not None else os.path.expanduser("~")
    if folder_text.startswith("~/") or folder_text == "~/":
        folder = Path(home) / folder_text[2:]
    else:
        folder = cwd / folder_text if folder_text else cwd
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    out: list[Candidate] = []
    for entry in entries:
        if not entry.name.startswith(stem) or (entry.name.startswith(".") and not stem.startswith(".")):
            continue
        suffix = "/" if entry.is_dir() else ""
        full = f"{lead}{folder_text}{entry.name}{suffix}"
        out.append(Candidate(start, cursor, full, entry.name + suffix))
        if len(out) >= MAX_RESULTS:
            break
    return out


def common_prefix(candidates: Sequence[Candidate]) -> str:
    """What every candidate's insertion starts with (for Tab completing as far as it is unambiguous)."""
    if not candidates:
        return ""
    return os.path.commonprefix([c.insert for c in candidates])  # noqa: RUF071 -- char-wise is the point
