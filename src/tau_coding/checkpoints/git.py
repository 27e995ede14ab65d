"""The git binary, run on Tau's own object store and never on the user's repository.

Why the git binary and not dulwich or pygit2: it is already installed wherever a project uses
git, its index keeps each file's stat data so ``git add -A`` re-hashes only what changed (a
10,000-file tree is re-checked in milliseconds), and it applies ``.gitignore`` exactly as the
user's own git does. dulwich re-implements ignore rules and hashes in Python (seconds on a large
tree); pygit2 needs libgit2 built for the platform. Nothing here is linked in: a missing git is
one ``CheckpointError``.

Every command runs with ``GIT_DIR`` set to the store, ``GIT_WORK_TREE`` to the project and
``GIT_INDEX_FILE`` to the store's own index; the user's and the system's git configuration are
not read, hooks and fsmonitor are off, and every ``GIT_*`` variable inherited from the caller is
dropped, so no command can reach the project's ``.git`` (its refs, index, stash, hooks, config).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

# Settings given on every command line; they win over anything in the store's config.
_CONFIG = (
    "core.fsmonitor=",
    "core.hooksPath=/dev/null",
    "core.autocrlf=false",
    "core.safecrlf=false",
    "core.symlinks=true",
    "core.fileMode=true",
    "core.quotePath=false",
    "core.untrackedCache=true",
    "core.splitIndex=false",
    "gc.auto=0",
    "advice.addEmbeddedRepo=false",
    "advice.detachedHead=false",
    "maintenance.auto=false",
    "protocol.allow=never",
)
_IDENTITY = {
    "GIT_AUTHOR_NAME": "tau",
    "GIT_AUTHOR_EMAIL": "tau@localhost",
    "GIT_COMMITTER_NAME": "tau",
    "GIT_COMMITTER_EMAIL": "tau@localhost",
}


class CheckpointError(RuntimeError):
    """A checkpoint could not be taken or restored; the message says why in one line."""


def git_binary() -> str:
    """The path of ``git``; CheckpointError when it is not installed."""
    found = shutil.which("git")
    if found is None:
        raise CheckpointError("checkpoints need the git program, which is not installed")
    return found


def safe_environ(environ: Mapping[str, str], git_dir: Path, work_tree: Path, index: Path) -> dict[str, str]:
    """``environ`` without any ``GIT_*`` variable, plus those that pin git to the store."""
    env = {key: value for key, value in environ.items() if not key.startswith("GIT_")}
    env.update(_IDENTITY)
    env.update(
        {
            "GIT_DIR": str(git_dir),
            "GIT_WORK_TREE": str(work_tree),
            "GIT_INDEX_FILE": str(index),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0",
            "LC_ALL": "C",
        }
    )
    return env


class Git:
    """Runs git commands against one store (``git_dir``) and one project (``work_tree``)."""

    def __init__(self, git_dir: Path, work_tree: Path, index: Path) -> None:
        self.git_dir = git_dir
        self.work_tree = work_tree
        self._binary = git_binary()
        self._env = safe_environ(os.environ, git_dir, work_tree, index)
        self._prefix = [self._binary]
        for setting in _CONFIG:
            self._prefix += ["-c", setting]

    def run(self, args: Sequence[str], *, stdin: bytes | None = None, check: bool = True) -> bytes:
        """The command's stdout; CheckpointError with git's first error line when it fails.
        ``args`` may start with ``-c name=value`` settings for this command only."""
        try:
            done = subprocess.run(
                [*self._prefix, *args],
                input=stdin,
                capture_output=True,
                env=self._env,
                cwd=self.work_tree,
                check=False,
            )
        except OSError as exc:
            raise CheckpointError(f"cannot run git: {exc.strerror or exc}") from exc
        if check and done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            why = next((line for line in lines if line.startswith(("fatal", "error"))), None)
            command = next((a for a in args if not a.startswith("-") and "=" not in a), "")
            raise CheckpointError(f"git {command} failed: {why or (lines[0] if lines else done.returncode)}")
        return done.stdout

    def text(self, args: Sequence[str]) -> str:
        return self.run(args).decode("utf-8", "surrogateescape").strip()


__all__ = ["CheckpointError", "Git", "git_binary", "safe_environ"]
