"""A task's own working copy: a copy of a folder or a clone of a repository at a ref, with the
starting state recorded so the agent's changes come back as one ``git diff``.

Everything goes through the ``git`` binary. A copied folder that is not a repository gets a
throwaway one. The starting state is a tree object (``git write-tree`` of everything present),
so uncommitted files in a copied repository count as the start, not as the agent's work.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

_GIT_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_AUTHOR_NAME": "tau batch",
    "GIT_AUTHOR_EMAIL": "tau@localhost",
    "GIT_COMMITTER_NAME": "tau batch",
    "GIT_COMMITTER_EMAIL": "tau@localhost",
}


class WorkspaceError(Exception):
    """The working copy could not be made or read; the message is one line."""


@dataclass(frozen=True, slots=True)
class Workspace:
    path: Path
    baseline: str  # the tree the diff is taken against


def _git(path: Path, *args: str, check: bool = True) -> str:
    env = {**os.environ, **_GIT_ENV}
    done = subprocess.run(
        ["git", "-c", "core.autocrlf=false", "-c", "core.quotepath=false", *args],
        cwd=path,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    if check and done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or ["exit status " + str(done.returncode)])[-1]
        raise WorkspaceError(f"git {args[0]}: {detail}")
    return done.stdout


def _fresh(dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)


def _snapshot(path: Path) -> str:
    _git(path, "add", "-A")
    return _git(path, "write-tree").strip()


def prepare(dest: Path, *, cwd: str | None, repo: str | None, ref: str | None, base: Path) -> Workspace:
    """Make ``dest`` afresh (what an earlier attempt left is removed): a copy of ``cwd``, a clone
    of ``repo`` checked out at ``ref`` (its default branch without one), or an empty folder.
    Relative ``cwd``/``repo`` paths are taken from ``base`` (the task file's folder)."""
    _fresh(dest)
    if repo is not None:
        source = (base / repo) if "://" not in repo and not Path(repo).is_absolute() else repo
        local = isinstance(source, Path) or Path(str(source)).exists()
        args = ["clone", "--quiet", "--no-checkout"]
        if local:
            args.append("--shared")  # borrow the objects: a clone of a big local repo stays cheap
        _git(dest.parent, *args, str(source), str(dest))
        _git(dest, "checkout", "--quiet", "--detach", ref or "HEAD")
    elif cwd is not None:
        source_dir = base / cwd
        if not source_dir.is_dir():
            raise WorkspaceError(f"cwd {cwd!r} is not a folder")
        shutil.copytree(source_dir, dest, symlinks=True)
    else:
        dest.mkdir()
    if not (dest / ".git").exists():
        _git(dest, "init", "--quiet", "--template=")  # no sample hooks to copy: a third of its time
    return Workspace(dest, _snapshot(dest))


class Seeds:
    """Working copies made once per source (folder, or repository and ref) in ``folder`` and then
    copied for each task: a task's copy costs a file copy, not three git processes. A source is
    read the first time a task of this process needs it."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._made: dict[tuple[str | None, ...], Workspace] = {}
        self._lock = threading.Lock()

    def prepare(
        self, dest: Path, *, cwd: str | None, repo: str | None, ref: str | None, base: Path
    ) -> Workspace:
        """As ``prepare``, from this process's seed of the same source."""
        key = (
            str(base / cwd) if cwd is not None else None,
            str(base / repo) if repo is not None else None,
            ref,
        )
        with self._lock:
            seed = self._made.get(key)
            if seed is None or not seed.path.is_dir():  # a finished batch removes its seeds
                name = f"{os.getpid()}-{threading.get_ident()}-{len(self._made)}"
                seed = prepare(self._folder / name, cwd=cwd, repo=repo, ref=ref, base=base)
                self._made[key] = seed
        _fresh(dest)
        shutil.copytree(seed.path, dest, symlinks=True)
        return Workspace(dest, seed.baseline)


_seeds: dict[Path, Seeds] = {}
_seeds_lock = threading.Lock()


def seeds_in(folder: Path) -> Seeds:
    """This process's ``Seeds`` kept in ``folder``."""
    with _seeds_lock:
        return _seeds.setdefault(folder, Seeds(folder))


def diff(workspace: Workspace) -> str:
    """Every change in the working copy since it was prepared (new files included), as a git diff."""
    _snapshot(workspace.path)
    return _git(workspace.path, "diff", "--cached", "--binary", "--no-color", workspace.baseline)


def remove(workspace: Path) -> None:
    shutil.rmtree(workspace, ignore_errors=True)
