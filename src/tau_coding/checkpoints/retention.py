"""Retention: which checkpoints to keep, and pruning the rest (``tau checkpoints gc``).

A checkpoint is kept while it is younger than the retention period and a session still
refers to it: a session file holds its ``tau.checkpoint`` entry, or the session file named in
its commit still exists. One younger than an hour is always kept (its entry may be being
written). Pruning drops the refs and lets ``git gc`` delete what nothing else holds; a store
left with no checkpoint and no project is removed.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tau_coding.checkpoints.git import CheckpointError, Git
from tau_coding.checkpoints.store import REF_PREFIX, store_lock

GRACE_SECONDS = 3600.0
DEFAULT_RETENTION_DAYS = 30.0
_MARK = b'"tau.checkpoint"'


@dataclass(frozen=True, slots=True)
class GcReport:
    stores: int = 0
    kept: int = 0
    pruned: int = 0
    stores_removed: int = 0

    def line(self) -> str:
        return (
            f"checkpoints: kept {self.kept}, pruned {self.pruned} "
            f"in {self.stores} project store(s); {self.stores_removed} store(s) removed"
        )


def referenced_ids(session_files: Iterable[Path]) -> set[str]:
    """The checkpoint ids that ``tau.checkpoint`` entries of these session files name."""
    found: set[str] = set()
    for file in session_files:
        try:
            data = file.read_bytes()
        except OSError:
            continue
        if _MARK not in data:
            continue
        for line in data.splitlines():
            if _MARK not in line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            inner = entry.get("data") if isinstance(entry, dict) else None
            if isinstance(inner, dict) and isinstance(inner.get("id"), str):
                found.add(inner["id"])
    return found


def _session_named(body: str) -> str:
    for line in body.splitlines():
        if line.startswith("session: "):
            return line.removeprefix("session: ").strip()
    return ""


def prune_store(
    git_dir: Path, *, keep: set[str], retention_days: float, now: float | None = None
) -> tuple[int, int]:
    """Drop the checkpoints of one store that retention does not keep; (kept, pruned)."""
    with store_lock(git_dir):
        return _prune(git_dir, keep, retention_days, time.time() if now is None else now)


def _prune(git_dir: Path, keep: set[str], retention_days: float, moment: float) -> tuple[int, int]:
    git = Git(git_dir, git_dir, git_dir / "tau-index")
    listing = git.run(
        ["for-each-ref", "--format=%(objectname)%00%(committerdate:unix)%00%(body)%00", REF_PREFIX]
    )
    fields = listing.decode("utf-8", "surrogateescape").split("\0")
    drop: list[str] = []
    kept = 0
    for i in range(0, len(fields) - 2, 3):
        commit, when, body = fields[i].strip(), fields[i + 1], fields[i + 2]
        age = moment - float(when or 0)
        named = _session_named(body)
        referenced = commit in keep or (named.startswith("/") and Path(named).exists())
        if age <= GRACE_SECONDS or (age <= retention_days * 86400 and referenced):
            kept += 1
        else:
            drop.append(commit)
    if drop:
        git.run(["update-ref", "--stdin"], stdin="".join(f"delete {REF_PREFIX}{c}\n" for c in drop).encode())
        git.run(["gc", "--prune=now", "--quiet"])
    return kept, len(drop)


def _project_exists(git_dir: Path) -> bool:
    try:
        project = (git_dir / "tau-project").read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return bool(project) and Path(project).is_dir()


def collect(
    checkpoints_dir: Path,
    *,
    keep: set[str],
    retention_days: float = DEFAULT_RETENTION_DAYS,
    now: float | None = None,
) -> GcReport:
    """Prune every project's store under ``checkpoints_dir``."""
    report = GcReport()
    if not checkpoints_dir.is_dir():
        return report
    stores = kept = pruned = removed = 0
    for git_dir in sorted(p for p in checkpoints_dir.iterdir() if (p / "HEAD").is_file()):
        stores += 1
        try:
            k, p = prune_store(git_dir, keep=keep, retention_days=retention_days, now=now)
        except CheckpointError:
            continue
        kept, pruned = kept + k, pruned + p
        if k == 0 and not _project_exists(git_dir):
            shutil.rmtree(git_dir, ignore_errors=True)
            removed += 1
    return GcReport(stores, kept, pruned, removed)


__all__ = ["DEFAULT_RETENTION_DAYS", "GcReport", "collect", "prune_store", "referenced_ids"]
