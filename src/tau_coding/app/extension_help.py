"""``tau --help`` lists the flags that the user's extensions add, after Tau's own.

Extensions are loaded only for this (as a session would load them, trust included), so help
stays instant when there are none.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path


def extension_flags_help(extension_paths: Sequence[str], *, no_extensions: bool, trust_project: bool) -> str:
    """An "extension flags" section, or "" when no extension declares a flag."""
    from tau_coding.app.extension_presence import maybe_build_host
    from tau_coding.config.paths import TauPaths
    from tau_coding.config.settings import load_settings
    from tau_coding.extensions.builtin import tau_extension
    from tau_coding.extensions.trust import project_is_trusted

    paths = TauPaths.from_env(os.environ, Path.cwd())
    trusted = project_is_trusted(paths.tau_home, paths.cwd, trust_flag=trust_project)
    settings, _ = load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)
    host = maybe_build_host(
        paths,
        settings.values,
        cli_paths=extension_paths,
        no_extensions=no_extensions,
        trust_project=trust_project,
        warn=lambda message: None,
        ui=None,
        builtin=tau_extension(()),
    )
    if host is None or not host.registry.flags:
        return ""
    lines = ["", "extension flags:"]
    for flag in host.registry.flags.values():
        shown = f"--{flag.name}" if flag.kind == "bool" else f"--{flag.name}=VALUE"
        lines.append(f"  {shown:<28} {flag.description} ({flag.owner})".rstrip())
    host.unload_all()
    return "\n".join(lines) + "\n"
