"""The active packages of a session and what they offer, as the ``packages`` settings say.

The user's settings list global packages, a trusted project's settings its own (an untrusted
project's list is ignored: its code does not run). A package listed in both counts once, the
project's entry winning. A package that is not fetched yet, or whose manifest is bad, is a
one-line problem and is skipped; nothing is fetched here (start-up opens no connection).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from tau_coding.config.paths import TauPaths
from tau_coding.packages.filters import select
from tau_coding.packages.manifest import KINDS, ManifestError, read_manifest
from tau_coding.packages.settings_entries import PackageEntry, SettingsFileError, entries_in
from tau_coding.packages.source import PackageSource, SourceError, parse_source
from tau_coding.packages.store import package_dir


@dataclass(frozen=True, slots=True)
class ActivePackage:
    source: PackageSource
    scope: str  # "user" or "project"
    directory: Path
    resources: dict[str, list[Path]]  # kind -> absolute paths, filtered


def package_root(paths: TauPaths, scope: str) -> Path:
    return paths.cwd / ".tau" / "packages" if scope == "project" else paths.tau_home / "packages"


def settings_file(paths: TauPaths, scope: str) -> Path:
    return paths.project_settings if scope == "project" else paths.user_settings


def active_packages(paths: TauPaths, *, trusted: bool, problems: list[str]) -> list[ActivePackage]:
    """Every active package with its (filtered) resources; ``problems`` gets what was skipped."""
    scopes = ["project", "user"] if trusted else ["user"]
    found: list[ActivePackage] = []
    seen: set[tuple[str, str]] = set()
    for scope in scopes:
        file = settings_file(paths, scope)
        try:
            entries = entries_in(file)
        except SettingsFileError as exc:
            problems.append(str(exc))
            continue
        for entry in entries:
            package = _activate(paths, scope, file, entry, problems)
            if package is None:
                continue
            identity = (package.source.kind, package.source.spec)
            if identity not in seen:
                seen.add(identity)
                found.append(package)
    return found


def _activate(
    paths: TauPaths, scope: str, file: Path, entry: PackageEntry, problems: list[str]
) -> ActivePackage | None:
    try:
        source = parse_source(entry.source, file.parent)
    except SourceError as exc:
        problems.append(f"{file}: packages: {exc}")
        return None
    directory = package_dir(package_root(paths, scope), source)
    if not directory.is_dir():
        flag = " -l" if scope == "project" else ""
        problems.append(f"package {entry.source} is not installed; run `tau install{flag} {entry.source}`")
        return None
    try:
        manifest = read_manifest(directory)
    except ManifestError as exc:
        problems.append(str(exc))
        return None
    resources = {}
    for kind in KINDS:
        offered = {_relative(p, directory): p for p in manifest.of(kind)}
        kept = select(list(offered), entry.filters.get(kind))
        resources[kind] = [offered.get(rel, directory / rel) for rel in kept]
    return ActivePackage(source, scope, directory, resources)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def entry_point_path(package: ActivePackage) -> str | None:
    """A pip-installed package's directory, put on ``sys.path`` so its entry points import
    (appended: the user's own modules of the same name win)."""
    if package.source.kind != "pypi":
        return None
    directory = str(package.directory)
    if directory not in sys.path:
        sys.path.append(directory)
    return directory
