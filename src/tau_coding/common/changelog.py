"""The installed Tau's CHANGELOG.md, and the one line said on the first start after an update.

The file ships inside the package (``tau_coding/CHANGELOG.md`` in a wheel); an editable install
reads the repository's copy. Versions compare as dotted numbers (``0.10.0`` is after ``0.9.1``);
anything after the numbers (``1.0.0rc1``) is ignored for ordering.
"""

from __future__ import annotations

import re
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # .../tau_coding
PLACES = (_PACKAGE / "CHANGELOG.md", _PACKAGE.parent.parent / "CHANGELOG.md")


def changelog_text(places: tuple[Path, ...] = PLACES) -> str | None:
    """The first CHANGELOG.md found (the packaged one, then the repository's); None: none is."""
    for place in places:
        try:
            return place.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return None


def version_key(version: str) -> tuple[int, ...]:
    """``"0.10.2"`` -> ``(0, 10, 2)``; the leading dotted numbers only."""
    match = re.match(r"\d+(?:\.\d+)*", version.strip().lstrip("v"))
    return tuple(int(part) for part in match.group(0).split(".")) if match else ()


def update_notice(last_seen: object, current: str) -> str | None:
    """The line to show when ``current`` is newer than the version last started (``last_seen``,
    the ``lastChangelogVersion`` setting); None on a first start (nothing seen yet) or when
    nothing changed."""
    if not isinstance(last_seen, str) or not last_seen.strip():
        return None
    if version_key(current) <= version_key(last_seen):
        return None
    return f"Tau was updated to {current} (from {last_seen}); /changelog shows what changed."
