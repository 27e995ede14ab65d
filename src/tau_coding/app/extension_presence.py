"""Whether a run has any extension or hook to load, answered without importing the machinery.

Most runs have none; they should not pay the ~40 ms that importing the host, its event
types and the hook parser costs. A ``True`` here only means "look closer".
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tau_coding.extensions.entry_points import may_have_entry_points

if TYPE_CHECKING:
    from tau_coding.config.paths import TauPaths
    from tau_coding.extensions.api import ExtensionAPI
    from tau_coding.extensions.host import ExtensionHost
    from tau_coding.extensions.ui import UIBridge


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
    builtin: Callable[[ExtensionAPI], object],
) -> ExtensionHost | None:
    """The session's ExtensionHost (with the built-in extension ``builtin`` activated in it),
    or ``None`` (cheaply) when there is nothing else to load."""
    if not anything_to_load(
        cli_paths=cli_paths,
        no_extensions=no_extensions,
        trust_project=trust_project,
        tau_home=paths.tau_home,
        project_dir=paths.cwd / ".tau",
        settings=settings,
    ):
        return None
    from tau_coding.app.extension_setup import build_host

    timeout = settings.get("extensionTimeout")
    return build_host(
        paths,
        cli_paths=cli_paths,
        no_extensions=no_extensions,
        trust_project=trust_project,
        timeout=float(timeout) if isinstance(timeout, int | float) else None,
        warn=warn,
        ui=ui,
        builtin=builtin,
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
    if cli_paths or trust_project or settings.get("hooks") or settings.get("packages"):
        return True
    if _has_entries(project_dir / "extensions"):  # loaded or warned about (trust)
        return True
    if no_extensions:
        return False
    if _has_entries(tau_home / "extensions"):
        return True
    return may_have_entry_points()
