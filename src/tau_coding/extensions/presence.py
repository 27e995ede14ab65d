"""Whether a run has any extension or hook to load, answered without importing the machinery.

Most runs have none; they should not pay the ~40 ms that importing the host, its event
types and the hook parser costs. A ``True`` here only means "look closer".
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tau_coding.config.paths import TauPaths
    from tau_coding.extensions.host import ExtensionHost
    from tau_coding.extensions.ui import UIBridge

ENTRY_POINT_GROUP = "tau.extensions"


def _has_entries(directory: Path) -> bool:
    try:
        with os.scandir(directory) as entries:
            return any(not e.name.startswith(("_", ".")) for e in entries)
    except OSError:
        return False


def maybe_build_host(
    paths: TauPaths,
    settings: Mapping[str, Any],
    *,
    cli_paths: Sequence[str],
    no_extensions: bool,
    trust_project: bool,
    warn: Callable[[str], object],
    ui: UIBridge | None,
) -> ExtensionHost | None:
    """The session's ExtensionHost, or ``None`` (cheaply) when there is nothing to load."""
    if not anything_to_load(
        cli_paths=cli_paths,
        no_extensions=no_extensions,
        trust_project=trust_project,
        tau_home=paths.tau_home,
        project_dir=paths.cwd / ".tau",
        settings=settings,
    ):
        return None
    from tau_coding.extensions.setup import build_host

    timeout = settings.get("extensionTimeout")
    return build_host(
        paths,
        cli_paths=cli_paths,
        no_extensions=no_extensions,
        trust_project=trust_project,
        timeout=float(timeout) if isinstance(timeout, int | float) else None,
        warn=warn,
        ui=ui,
    )


def anything_to_load(
    *,
    cli_paths: Sequence[str],
    no_extensions: bool,
    trust_project: bool,
    tau_home: Path,
    project_dir: Path,
    settings: Mapping[str, Any],
) -> bool:
    """-e paths, settings hooks, extension directories or extension packages: any of them."""
    if cli_paths or trust_project or settings.get("hooks"):
        return True
    if _has_entries(project_dir / "extensions"):  # loaded or warned about (trust)
        return True
    if no_extensions:
        return False
    if _has_entries(tau_home / "extensions"):
        return True
    return may_have_entry_points()


def may_have_entry_points(path: Sequence[str] | None = None) -> bool:
    """Whether any installed distribution's entry_points.txt names the group (a cheap text scan).

    ``importlib.metadata`` costs ~20 ms to import (email, zipfile, csv); most runs have no
    extension packages, so they are spared it.
    """
    marker = f"[{ENTRY_POINT_GROUP}]"
    for directory in sys.path if path is None else path:
        try:
            children = os.scandir(directory or ".")
        except OSError:
            continue
        with children:
            for child in children:
                if not child.name.endswith((".dist-info", ".egg-info")):
                    continue
                try:
                    with open(os.path.join(child.path, "entry_points.txt"), encoding="utf-8") as handle:
                        if marker in handle.read():
                            return True
                except OSError:
                    continue
    return False
