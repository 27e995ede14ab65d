"""The only module that knows where Tau's files live.

``TAU_HOME`` (default ``~/.tau``) holds user-level files; a project may hold ``.tau/``.
Nothing is created here: callers create directories when they first write.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class TauPaths:
    """Where one run's files are: every other path (settings, sessions, models.json, ...) is
    derived from these three."""

    home: Path  # the user's home directory
    tau_home: Path  # TAU_HOME
    cwd: Path  # the working directory the tools start in

    @classmethod
    def from_env(cls, environ: Mapping[str, str], cwd: Path) -> TauPaths:
        home = Path(environ.get("HOME") or Path.home())
        configured = environ.get("TAU_HOME")
        tau_home = Path(configured).expanduser() if configured else home / ".tau"
        return cls(home=home, tau_home=tau_home, cwd=cwd.resolve())

    @property
    def user_settings(self) -> Path:
        return self.tau_home / "settings.json"

    @property
    def project_settings(self) -> Path:
        return self.cwd / ".tau" / "settings.json"

    @property
    def auth_file(self) -> Path:
        return self.tau_home / "auth.json"

    @property
    def models_file(self) -> Path:
        return self.tau_home / "models.json"

    @property
    def sessions_dir(self) -> Path:
        return self.tau_home / "sessions"

    @property
    def checkpoints_dir(self) -> Path:
        """One git object store per project (tau_coding.checkpoints)."""
        return self.tau_home / "checkpoints"
