"""The active packages' skills, prompt templates and themes, as paths for the resource loader.

Read from the same ``packages`` settings and manifests as their extensions (active.py), each
time a session is built, so ``/reload`` picks up a package installed or changed since. A
package's problems (not installed, a bad manifest) are reported by extension discovery, which
walks the same list; here they are left out so each is said once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tau_coding.config.paths import TauPaths
from tau_coding.packages.active import active_packages


@dataclass(frozen=True, slots=True)
class PackageResources:
    skills: list[Path] = field(default_factory=list)
    prompts: list[Path] = field(default_factory=list)
    themes: list[Path] = field(default_factory=list)


def package_resources(paths: TauPaths, *, trusted: bool) -> PackageResources:
    """Every active package's skills, prompts and themes (after its filters), in package order."""
    found = PackageResources()
    for package in active_packages(paths, trusted=trusted, problems=[]):
        found.skills.extend(package.resources.get("skills", []))
        found.prompts.extend(package.resources.get("prompts", []))
        found.themes.extend(package.resources.get("themes", []))
    return found
