"""Making the ExtensionHost for a session: where extensions come from, trust, shell hooks.

Called by the composition root. Sources, in precedence order (the first of a name wins):
``-e PATH`` arguments, a trusted project's ``.tau/extensions``, ``TAU_HOME/extensions``, then
installed packages' ``tau.extensions`` entry points. ``--no-extensions`` keeps only the
``-e`` ones. Shell hooks come from the user's settings.json and a trusted project's. A
project is never run from (extensions or hooks) before the user trusts it: see ``trust.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import read_json_object
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.host import DEFAULT_TIMEOUT, ExtensionHost
from tau_coding.extensions.loader import ExtensionSource, from_entry_points, from_path, in_directory
from tau_coding.extensions.registry import BUILTIN
from tau_coding.extensions.trust import TrustStore
from tau_coding.extensions.ui import HeadlessUI, UIBridge

if TYPE_CHECKING:
    from tau_coding.extensions.shell_hooks.config import HookConfig

TRUST_HINT = "run `tau --trust-project` in it once to trust it"


def project_extensions_dir(paths: TauPaths) -> Path:
    return paths.cwd / ".tau" / "extensions"


def discover(
    paths: TauPaths,
    cli_paths: Sequence[str],
    *,
    trusted: bool,
    everything: bool,
    warn: Callable[[str], object],
) -> list[ExtensionSource]:
    sources: list[ExtensionSource] = []
    for raw in cli_paths:
        path = (paths.cwd / Path(raw).expanduser()).resolve()
        source = from_path(path, "cli")
        if source is None:
            warn(f"-e {raw}: not a .py file or a package directory; skipped")
        else:
            sources.append(source)
    if not everything:
        return sources
    if trusted:
        sources += in_directory(project_extensions_dir(paths), "project")
    sources += in_directory(paths.tau_home / "extensions", "user")
    if _lists_packages(paths, trusted=trusted):  # `tau install` packages (docs/packages.md)
        from tau_coding.packages.extension_sources import package_extensions

        sources += package_extensions(paths, trusted=trusted, warn=warn)
    named = {source.location for source in sources}  # a pip-installed package's are there already
    sources += [source for source in from_entry_points() if source.location not in named]
    return sources


def _lists_packages(paths: TauPaths, *, trusted: bool) -> bool:
    files = [paths.user_settings, paths.project_settings] if trusted else [paths.user_settings]
    return any(read_json_object(file, []).get("packages") for file in files if file.exists())


def load_hook_config(
    paths: TauPaths, *, trusted: bool, diagnostics: list[Diagnostic]
) -> tuple[HookConfig | None, bool]:
    """Hooks of the user's settings, then the project's if trusted (``None``: no hooks at all);
    also whether the project has hooks of its own."""
    user = read_json_object(paths.user_settings, diagnostics)
    project = read_json_object(paths.project_settings, diagnostics) if paths.project_settings.exists() else {}
    has_project_hooks = bool(project.get("hooks"))
    if not user.get("hooks") and not (trusted and has_project_hooks):
        return None, has_project_hooks
    from tau_coding.extensions.shell_hooks.config import HookConfig, parse_hooks

    config = HookConfig()
    parse_hooks(user, str(paths.user_settings), config, diagnostics)
    if trusted:
        parse_hooks(project, str(paths.project_settings), config, diagnostics)
    return (config if config else None), has_project_hooks


def build_host(
    paths: TauPaths,
    *,
    cli_paths: Sequence[str],
    no_extensions: bool,
    trust_project: bool,
    timeout: float | None,
    warn: Callable[[str], object],
    ui: UIBridge | None,
    builtin: Callable[[ExtensionAPI], object],
) -> ExtensionHost | None:
    """The host, with the built-in extension ``builtin`` and every source loaded; ``None`` when
    there is nothing else to load (the session keeps its ``BuiltinHost``)."""
    store = TrustStore(paths.tau_home)
    if trust_project:
        store.trust(paths.cwd)
    trusted = store.is_trusted(paths.cwd)
    if store.problem:
        warn(store.problem)
    diagnostics: list[Diagnostic] = []
    hooks, project_hooks = load_hook_config(paths, trusted=trusted, diagnostics=diagnostics)
    for diagnostic in diagnostics:
        warn(str(diagnostic))
    if not trusted and (
        project_hooks or (not no_extensions and in_directory(project_extensions_dir(paths), "project"))
    ):
        warn(
            f"project {paths.cwd} has extensions or hooks in .tau/ that were not run: it is not trusted; {TRUST_HINT}"
        )

    def sources() -> list[ExtensionSource]:
        return discover(paths, cli_paths, trusted=trusted, everything=not no_extensions, warn=warn)

    found = sources()
    if not found and not hooks:
        return None
    host = ExtensionHost(
        cwd=paths.cwd,
        ui=ui or HeadlessUI(warn),
        warn=warn,
        timeout=timeout or DEFAULT_TIMEOUT,
        discover=sources,
    )
    host.add_builtin(BUILTIN, builtin)
    if hooks is not None:
        from tau_coding.extensions.shell_hooks.extension import ShellHooks, handler_timeout

        host.add_builtin("hooks", ShellHooks(hooks, paths.cwd).activate, timeout=handler_timeout(hooks))
    host.load(found)
    return host
