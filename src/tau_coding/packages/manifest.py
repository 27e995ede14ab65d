"""What a package offers: extensions, skills, prompts and themes, by path inside it.

A ``[tool.tau]`` table in the package's ``pyproject.toml`` lists them (each key a list of paths
relative to the package, e.g. ``extensions = ["src/jokes.py"]``); a kind the table does not name
comes from its conventional folder (``extensions/``, ``skills/``, ``prompts/``, ``themes/``) when
that exists. Extensions listed or found are ``*.py`` files or package directories.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("extensions", "skills", "prompts", "themes")


class ManifestError(ValueError):
    """A pyproject.toml whose ``[tool.tau]`` table cannot be read; one line for the user."""


@dataclass(frozen=True, slots=True)
class Manifest:
    root: Path
    resources: dict[str, list[Path]] = field(default_factory=dict)  # kind -> absolute paths

    def of(self, kind: str) -> list[Path]:
        return self.resources.get(kind, [])


def read_manifest(root: Path) -> Manifest:
    """The package at ``root``: its declared resources, else its conventional folders."""
    table = _tool_tau(root / "pyproject.toml")
    resources: dict[str, list[Path]] = {}
    for kind in KINDS:
        declared = table.get(kind)
        if declared is not None:
            if not isinstance(declared, list) or not all(isinstance(p, str) for p in declared):
                raise ManifestError(f"{root / 'pyproject.toml'}: [tool.tau].{kind} must be a list of paths")
            resources[kind] = [(root / p).resolve() for p in declared]
        elif (root / kind).is_dir():
            resources[kind] = _entries(root / kind, kind)
    return Manifest(root, resources)


def _tool_tau(pyproject: Path) -> dict[str, object]:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(f"{pyproject}: {exc}") from exc
    tool = data.get("tool")
    table = tool.get("tau") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else {}


def _entries(directory: Path, kind: str) -> list[Path]:
    found = []
    for entry in sorted(directory.iterdir()):
        if entry.name.startswith(("_", ".")):
            continue
        if kind == "extensions" and not (entry.suffix == ".py" or (entry / "__init__.py").is_file()):
            continue
        found.append(entry.resolve())
    return found
