"""The ``packages`` setting: entries as Pi writes them (a source string, or an object with
``source`` and per-kind filters), read and edited without losing the file's other keys."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_agent.atomic_write import atomic_write_bytes
from tau_coding.common.diagnostics import Diagnostic
from tau_coding.config.settings import read_json_object
from tau_coding.packages.manifest import KINDS


class SettingsFileError(ValueError):
    """settings.json cannot be read as a JSON object; one line for the user."""


@dataclass(frozen=True, slots=True)
class PackageEntry:
    source: str
    filters: dict[str, list[str] | None]  # kind -> patterns (None: all of that kind)


def parse_entries(value: object) -> list[PackageEntry]:
    """Entries of a ``packages`` value; anything malformed in it is skipped."""
    entries = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str) and item.strip():
            entries.append(PackageEntry(item.strip(), dict.fromkeys(KINDS)))
        elif isinstance(item, dict) and isinstance(item.get("source"), str):
            filters: dict[str, list[str] | None] = {}
            for kind in KINDS:
                patterns = item.get(kind)
                listed = isinstance(patterns, list) and all(isinstance(p, str) for p in patterns)
                filters[kind] = [str(p) for p in patterns] if isinstance(patterns, list) and listed else None
            entries.append(PackageEntry(item["source"].strip(), filters))
    return entries


def read_settings(path: Path) -> dict[str, Any]:
    diagnostics: list[Diagnostic] = []
    data = read_json_object(path, diagnostics)
    if diagnostics:
        raise SettingsFileError(f"{diagnostics[0].source}: {diagnostics[0].message}")
    return data


def entries_in(path: Path) -> list[PackageEntry]:
    return parse_entries(read_settings(path).get("packages")) if path.exists() else []


def add_entry(path: Path, source: str) -> bool:
    """Add ``source`` (unless an entry already names it); False when it was there."""
    data = read_settings(path) if path.exists() else {}
    packages = data.get("packages") if isinstance(data.get("packages"), list) else []
    assert isinstance(packages, list)
    if any(entry.source == source for entry in parse_entries(packages)):
        return False
    data["packages"] = [*packages, source]
    _write(path, data)
    return True


def remove_entry(path: Path, source: str) -> bool:
    """Drop every entry naming ``source``; False when none did."""
    if not path.exists():
        return False
    data = read_settings(path)
    packages = data.get("packages") if isinstance(data.get("packages"), list) else []
    assert isinstance(packages, list)
    kept = [item for item in packages if _source_of(item) != source]
    if len(kept) == len(packages):
        return False
    data["packages"] = kept
    _write(path, data)
    return True


def _source_of(item: object) -> str | None:
    if isinstance(item, str):
        return item.strip()
    if isinstance(item, dict) and isinstance(item.get("source"), str):
        return str(item["source"]).strip()
    return None


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
