"""Helpers for checkpoint tests: real projects on disk, read back byte for byte."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

GIT_ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
    "GIT_AUTHOR_NAME": "User",
    "GIT_AUTHOR_EMAIL": "user@example.com",
    "GIT_COMMITTER_NAME": "User",
    "GIT_COMMITTER_EMAIL": "user@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, capture_output=True, text=True, check=True)
    return done.stdout


def sh(cwd: Path, command: str) -> None:
    """Run ``command`` the way the bash tool would: a shell in the project."""
    subprocess.run(["bash", "-c", command], cwd=cwd, check=True)


def tree_state(root: Path, *, skip: tuple[str, ...] = (".git",)) -> dict[str, tuple[str, bytes]]:
    """Every file under ``root`` (not under ``skip``): kind and mode, and bytes or link target."""
    out: dict[str, tuple[str, bytes]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        dirnames[:] = [d for d in dirnames if str(rel_dir / d) not in skip and d not in skip]
        for name in [*filenames, *(d for d in dirnames if (Path(dirpath) / d).is_symlink())]:
            path = Path(dirpath) / name
            rel = str(rel_dir / name)
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path).encode())
            else:
                exec_bit = "x" if os.stat(path).st_mode & 0o100 else "-"
                out[rel] = (f"file{exec_bit}", path.read_bytes())
    return out


def dot_git_digest(repo: Path) -> str:
    """A hash over every file of ``repo/.git`` (names, bytes): equal means untouched."""
    digest = hashlib.sha256()
    for path in sorted((repo / ".git").rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(repo)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
