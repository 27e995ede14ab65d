"""The active packages' extensions, as sources for the ExtensionHost (origin ``package``)."""

from __future__ import annotations

from collections.abc import Callable

from tau_coding.config.paths import TauPaths
from tau_coding.extensions.loader import ExtensionSource, from_entry_points, from_path
from tau_coding.packages.active import active_packages, entry_point_path


def package_extensions(
    paths: TauPaths, *, trusted: bool, warn: Callable[[str], object]
) -> list[ExtensionSource]:
    """Extension files and folders the active packages offer, then pip-installed packages'
    ``tau.extensions`` entry points; each problem is one warning."""
    problems: list[str] = []
    sources: list[ExtensionSource] = []
    for package in active_packages(paths, trusted=trusted, problems=problems):
        for path in package.resources.get("extensions", []):
            source = from_path(path, "package")
            if source is None:
                problems.append(
                    f"package {package.source.key}: {path} is not a .py file or a package directory"
                )
            else:
                sources.append(source)
        directory = entry_point_path(package)
        if directory is not None:
            sources += from_entry_points([directory])
    for problem in problems:
        warn(problem)
    return sources
