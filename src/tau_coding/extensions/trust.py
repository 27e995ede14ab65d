"""Which projects the user trusts to run their own code (extensions, shell hooks).

A project's ``.tau/extensions`` and the ``hooks`` of its ``.tau/settings.json`` are code that
came with the repository; Tau runs them only for a project the user has trusted once. The
decision is kept in ``TAU_HOME/trusted-projects.json``, written atomically::

    {"version": 1, "projects": {"/abs/project/path": {"trustedAt": "2026-11-30T11:00:00Z"}}}

A project is trusted if it or a directory above it is listed. An unreadable or malformed
file trusts nothing (and says why); it is replaced on the next ``trust``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from tau_agent.atomic_write import atomic_write_bytes

TRUST_FILE = "trusted-projects.json"


class TrustStore:
    def __init__(self, tau_home: Path) -> None:
        self.path = tau_home / TRUST_FILE
        self.problem: str | None = None

    def _projects(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError) as exc:
            self.problem = f"{self.path}: unreadable, trusting no project: {exc}"
            return {}
        projects = data.get("projects") if isinstance(data, dict) else None
        if not isinstance(projects, dict):
            self.problem = f"{self.path}: no 'projects' object, trusting no project"
            return {}
        return projects

    def is_trusted(self, project: Path) -> bool:
        resolved = project.resolve()
        trusted = self._projects()
        return any(str(p) in trusted for p in (resolved, *resolved.parents))

    def trust(self, project: Path, now: datetime | None = None) -> None:
        """Remember ``project`` as trusted (idempotent)."""
        projects = dict(self._projects())
        stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
        projects[str(project.resolve())] = {"trustedAt": stamp}
        text = json.dumps({"version": 1, "projects": projects}, indent=2, sort_keys=True) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, text.encode("utf-8"))


def project_is_trusted(tau_home: Path, project: Path, *, trust_flag: bool = False) -> bool:
    """Whether ``project`` is trusted now, counting a ``--trust-project`` given on this run."""
    return trust_flag or TrustStore(tau_home).is_trusted(project)
