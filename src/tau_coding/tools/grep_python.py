"""grep's pure-Python backend: the same files and the same hits as ripgrep, only slower.

Used when no ``rg`` binary is available. Python's ``re`` dialect differs from ripgrep's in
corners (possessive quantifiers, some classes); common patterns behave the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tau_agent.cancellation import CancellationToken
from tau_coding.tools.filetype import SNIFF_BYTES
from tau_coding.tools.globs import Glob
from tau_coding.tools.walk import walk_files

MAX_FILE_BYTES = 64 * 1024 * 1024  # larger files are skipped by the fallback


@dataclass(frozen=True, slots=True)
class Hit:
    path: str
    line: int
    is_match: bool
    text: str


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One grep call: ``root`` on disk, ``target`` as shown to the model (cwd-relative)."""

    pattern: str
    root: Path
    target: str
    root_prefix: str
    glob: Glob | None
    ignore_case: bool
    literal: bool
    context: int
    limit: int


def _compile(request: SearchRequest) -> re.Pattern[str] | str:
    source = re.escape(request.pattern) if request.literal else request.pattern
    try:
        return re.compile(source, re.IGNORECASE if request.ignore_case else 0)
    except re.error as exc:
        return f"invalid regex {request.pattern!r}: {exc}"


def _file_hits(path: Path, shown: str, regex: re.Pattern[str], context: int, budget: int) -> list[Hit]:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return []
        data = path.read_bytes()
    except OSError:
        return []
    if b"\x00" in data[:SNIFF_BYTES]:
        return []  # binary, as ripgrep decides by default
    lines = data.decode("utf-8", errors="replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    hits: list[Hit] = []
    shown_upto = 0  # lines before this index are already in ``hits``
    found = 0
    for index, line in enumerate(lines):
        if found >= budget:
            break
        text = line.removesuffix("\r")
        if regex.search(text) is None:
            continue
        found += 1
        for before in range(max(shown_upto, index - context), index):
            hits.append(Hit(shown, before + 1, False, lines[before].removesuffix("\r")))
        hits.append(Hit(shown, index + 1, True, text))
        shown_upto = index + 1
        for after in range(index + 1, min(len(lines), index + 1 + context)):
            if regex.search(lines[after].removesuffix("\r")) is not None:
                break  # the next match prints itself with its own context
            hits.append(Hit(shown, after + 1, False, lines[after].removesuffix("\r")))
            shown_upto = after + 1
    return hits


def search_python(request: SearchRequest, signal: CancellationToken) -> list[Hit] | str:
    """Hits in walk order, stopping at ``request.limit`` matches; a message for a bad pattern."""
    regex = _compile(request)
    if isinstance(regex, str):
        return regex
    candidates: Iterable[tuple[Path, str]]
    if request.root.is_file():
        candidates = [(request.root, request.target)]
    else:
        candidates = (
            (request.root / rel, request.root_prefix + rel)
            for rel in walk_files(request.root)
            if request.glob is None or request.glob.matches(rel)
        )
    hits: list[Hit] = []
    matches = 0
    for path, shown in candidates:
        if signal.cancelled or matches >= request.limit:
            break
        found = _file_hits(path, shown, regex, request.context, request.limit - matches)
        matches += sum(hit.is_match for hit in found)
        hits.extend(found)
    return hits
