"""The git branch of a folder, read from ``.git/HEAD`` without running git (fast at startup)."""

from __future__ import annotations

from pathlib import Path


def git_branch(cwd: Path) -> str | None:
    """The branch name, a short commit id when detached, or None outside a work tree."""
    for folder in (cwd, *cwd.parents):
        dot_git = folder / ".git"
        try:
            if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
                target = dot_git.read_text(encoding="utf-8").strip().removeprefix("gitdir:").strip()
                head = (folder / target / "HEAD").read_text(encoding="utf-8").strip()
            elif dot_git.is_dir():
                head = (dot_git / "HEAD").read_text(encoding="utf-8").strip()
            else:
                continue
        except OSError:
            return None
        if head.startswith("ref: "):
            return head[5:].removeprefix("refs/heads/")
        return head[:7] or None
    return None
