"""The project's files for ``@`` completion, respecting .gitignore.

Inside a git work tree, ``git ls-files`` answers exactly what git would track or show as
untracked, so .gitignore, nested ignores and excludes are honoured as git sees them; it runs
with config that no repository can turn into running a program (``SAFE_GIT_CONFIG``). Elsewhere
a bounded walk skips hidden folders and the usual build and cache directories.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

LIMIT = 20_000
SKIP_DIRS = {"node_modules", "__pycache__", "build", "dist", "target", "venv", ".venv"}
# The repository's own config may name programs git runs while listing files (a hostile clone's
# ``core.fsmonitor`` hook runs at ``git ls-files``); command-line ``-c`` overrides it, includes too.
SAFE_GIT_CONFIG = ("-c", "core.fsmonitor=false")


def project_files(root: Path, limit: int = LIMIT) -> list[str]:
    """Relative paths with ``/`` separators, at most ``limit``; never raises for a missing git."""
    listed = _git_files(root)
    if listed is not None:
        return listed[:limit]
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        rel = os.path.relpath(dirpath, root)
        for name in sorted(filenames):
            found.append(name if rel == "." else f"{rel}/{name}".replace(os.sep, "/"))
            if len(found) >= limit:
                return found
    return found


def _git_files(root: Path) -> list[str] | None:
    try:
        done = subprocess.run(
            ["git", *SAFE_GIT_CONFIG, "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=root,
            capture_output=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return sorted({p for p in done.stdout.decode("utf-8", "replace").split("\0") if p})
