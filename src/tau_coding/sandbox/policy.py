"""SandboxPolicy: what a confined command may write, read and reach, built from settings.

Settings (docs/settings.md): ``sandbox.enabled``, ``sandbox.network``, ``sandbox.writablePaths``,
``sandbox.required``. An untrusted project cannot weaken them (``config/settings.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Secrets under the home directory that a confined command never sees (hidden, not just read-only).
SECRET_DIRS: tuple[str, ...] = (
    ".ssh",
    ".aws",
    ".gnupg",
    ".config/gcloud",
    ".azure",
    ".kube",
    ".docker",
    ".password-store",
    ".config/gh",
    ".config/op",
)
SECRET_FILES: tuple[str, ...] = (".netrc", ".git-credentials", ".npmrc", ".pypirc", ".pgpass")
# Inside a writable project these stay read-only: a command that wrote them could make Tau or git
# run its code later, outside the sandbox (project settings and extensions, git hooks, core.fsmonitor).
PROTECTED_IN_PROJECT: tuple[str, ...] = (".tau", ".git/hooks", ".git/config")


@dataclass(frozen=True, slots=True)
class SandboxPolicy:
    """What a confined command may do. Paths are absolute and resolved.

    ``writable``: the project, the temp dirs and ``sandbox.writablePaths`` (everything else is
    read-only). ``hidden``/``hidden_files``: secret directories and files that look empty inside.
    ``protected``: paths inside writable ones kept read-only when they exist. ``network``: whether the network is reachable.
    ``required``: whether a command must be refused when the sandbox cannot start (else it runs
    unconfined after a one-line warning). ``notify`` receives that warning (once per process).
    """

    project: Path
    writable: tuple[Path, ...]
    hidden: tuple[Path, ...] = ()
    hidden_files: tuple[Path, ...] = ()
    protected: tuple[Path, ...] = ()
    network: bool = False
    required: bool = False
    notify: Callable[[str], object] | None = field(default=None, compare=False)

    def is_writable(self, path: Path) -> bool:
        """Whether ``path`` (absolute) lies in a writable path and not in a protected one."""
        inside = any(path == root or root in path.parents for root in self.writable)
        return inside and not any(path == p or p in path.parents for p in self.protected)


def temp_dirs() -> tuple[Path, ...]:
    """The temp directories commands write to: ``$TMPDIR``, ``$TMP``, ``$TEMP`` and ``/tmp``
    (what ``tempfile.gettempdir`` picks from, without its probe, which writes and deletes a file
    at every start)."""
    found: list[Path] = []
    for name in ("TMPDIR", "TMP", "TEMP"):
        if value := os.environ.get(name):
            found.append(Path(value))
    found.append(Path("/tmp"))
    return _unique(p.resolve() for p in found if p.is_dir())


def sandbox_policy(
    get: Callable[..., Any],
    cwd: Path,
    *,
    home: Path,
    tau_home: Path,
    forced: bool = False,
    temp: Sequence[Path] | None = None,
    notify: Callable[[str], object] | None = None,
) -> SandboxPolicy | None:
    """The policy for commands run in ``cwd``, or None when they run unconfined.

    ``get`` reads a dotted settings key (``Settings.get``). ``forced`` turns the sandbox on
    whatever ``sandbox.enabled`` says (a permission mode that needs it). Secrets of ``home``
    and ``tau_home`` (auth.json's folder) are hidden; relative ``writablePaths`` are taken from
    ``cwd`` and ``~`` is expanded.
    """
    if not (forced or get("sandbox.enabled") is True):
        return None
    project = cwd.resolve()
    extra = [_expand(str(p), project, home) for p in get("sandbox.writablePaths") or () if str(p).strip()]
    writable = _unique([project, *(temp_dirs() if temp is None else temp), *extra])
    dirs = [p.resolve() for p in (*(home / name for name in SECRET_DIRS), tau_home) if p.is_dir()]
    files = [p.resolve() for p in (home / name for name in SECRET_FILES) if p.is_file()]
    return SandboxPolicy(
        project=project,
        writable=writable,
        hidden=_unique(p for p in dirs if p != project and p not in project.parents),
        hidden_files=_unique(files),
        protected=tuple(project / name for name in PROTECTED_IN_PROJECT),
        network=get("sandbox.network") is True,
        required=get("sandbox.required") is True,
        notify=notify,
    )


def _expand(text: str, cwd: Path, home: Path) -> Path:
    if text == "~" or text.startswith("~/"):
        text = str(home) + text[1:]
    return (cwd / text).resolve()


def _unique(paths: Iterable[Path]) -> tuple[Path, ...]:
    return tuple(dict.fromkeys(paths))
