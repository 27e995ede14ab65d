"""Where packages live on disk, and fetching them: git clones and pip installs.

Global packages go under ``TAU_HOME/packages``, a project's under ``.tau/packages``: a git
source is cloned to ``git/<name>`` (and checked out at its ref), a PyPI requirement is
installed with pip into ``pypi/<name>`` (``pip install --target``: Tau's own directory, never
the user's environment; pip's usual settings such as ``PIP_INDEX_URL`` apply). A local
directory is used where it is. A failing git or pip is a ``FetchError`` with its last line.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tau_coding.packages.source import PackageSource


class FetchError(RuntimeError):
    """git or pip failed; the message is one line for the user."""


def package_dir(root: Path, source: PackageSource) -> Path:
    """Where the source's files are (for a local source, the directory itself)."""
    if source.kind == "local":
        return Path(source.spec)
    return root / source.kind / source.slug


def fetch(root: Path, source: PackageSource, *, update: bool = False) -> Path:
    """Make the package present (``update``: bring it to the newest of its ref); its directory."""
    target = package_dir(root, source)
    if source.kind == "git":
        _git_fetch(source, target, update)
    elif source.kind == "pypi" and (update or not target.is_dir()):
        _pip_install(source, target)
    elif source.kind == "local" and not target.is_dir():
        raise FetchError(f"{target}: no such directory")
    return target


def discard(root: Path, source: PackageSource) -> None:
    """Delete what ``fetch`` made (a local directory is never touched)."""
    if source.kind != "local":
        shutil.rmtree(package_dir(root, source), ignore_errors=True)


def _git_fetch(source: PackageSource, target: Path, update: bool) -> None:
    if not target.is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        _run(["git", "clone", "--quiet", source.spec, str(partial)])
        if source.ref:
            _run(["git", "-C", str(partial), "checkout", "--quiet", source.ref])
        partial.rename(target)
        return
    if update:
        _run(["git", "-C", str(target), "fetch", "--quiet", "--tags", "origin"])
        if source.ref:
            _run(["git", "-C", str(target), "checkout", "--quiet", source.ref])
            branch = subprocess.run(
                ["git", "-C", str(target), "symbolic-ref", "-q", "HEAD"], capture_output=True, check=False
            )
            if branch.returncode == 0:  # a branch follows its remote; a tag or commit stays put
                _run(["git", "-C", str(target), "merge", "--quiet", "--ff-only", f"origin/{source.ref}"])
        else:
            _run(["git", "-C", str(target), "pull", "--quiet", "--ff-only"])


def _pip_install(source: PackageSource, target: Path) -> None:
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    _run([*command, "--no-input", "--target", str(partial), source.spec])
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)


def _run(command: list[str]) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
    except OSError as exc:
        raise FetchError(f"{command[0]}: {exc.strerror or exc}") from exc
    if done.returncode != 0:
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        raise FetchError(
            f"{' '.join(command[:3])} failed: {lines[-1] if lines else f'exit {done.returncode}'}"
        )
