"""Where a call's path points, and the paths that always ask (unless the mode is yolo).

Changing ``.git/`` or ``.tau/`` (hooks, settings, permission rules), the user's shell start-up
files or key material lets a command run later with the user's rights, so writes there ask
even when a rule or the mode would allow them. Reading secrets (keys, ~/.ssh, cloud
credentials, Tau's auth.json) asks too.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

_RC_FILES = frozenset(
    {
        ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile",
        ".zshenv", ".zlogin", ".kshrc", ".cshrc", ".tcshrc", ".inputrc", ".gitconfig",
    }
)  # fmt: skip
_SECRET_DIRS = (".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config/gcloud")
_KEY_FILE = re.compile(r"(^id_(rsa|dsa|ecdsa|ed25519)[^/]*$)|(\.(pem|key|p12|pfx|keystore|jks)$)")


@dataclass(frozen=True, slots=True)
class Places:
    """The directories a decision depends on, absolute and without a trailing slash."""

    project: str
    home: str
    tau_home: str

    def resolve(self, path: str) -> str:
        """``path`` (relative to the project, ``~`` expanded) as an absolute, real path."""
        if path.startswith("~/") or path == "~":
            path = self.home + path[1:]
        joined = path if path.startswith("/") else os.path.join(self.project, path)
        return os.path.realpath(joined)

    def inside_project(self, path: str) -> bool:
        return path == self.project or path.startswith(self.project.rstrip("/") + "/")


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def secret(path: str, places: Places) -> str | None:
    """Why reading ``path`` asks, or None."""
    for name in _SECRET_DIRS:
        if _under(path, f"{places.home}/{name}"):
            return f"~/{name} holds secrets"
    if _under(path, places.tau_home + "/auth.json"):
        return "Tau's auth.json holds API keys"
    if _KEY_FILE.search(os.path.basename(path)):
        return "key files are protected"
    return None


def protected(path: str, places: Places) -> str | None:
    """Why changing ``path`` asks whatever the rules say, or None."""
    why = secret(path, places)
    if why is not None:
        return why
    parts = path.split("/")
    if ".git" in parts:
        return ".git/ is protected (its hooks and config run commands)"
    if _under(path, places.project + "/.tau") or _under(path, places.tau_home):
        return ".tau/ is protected (settings, hooks and permission rules)"
    if os.path.dirname(path) == places.home and os.path.basename(path) in _RC_FILES:
        return "shell start-up files are protected"
    if _under(path, places.home + "/.config/fish"):
        return "shell start-up files are protected"
    return None
