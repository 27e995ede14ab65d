"""Whether a session takes checkpoints, and where they are kept (docs/checkpoints.md).

``--no-checkpoints`` or ``checkpoints.enabled: false`` turn them off; ``checkpoints.maxFileBytes``
is the size above which a file is left out of them. At most once a day a session's start also
prunes old checkpoints (``tau checkpoints gc``'s work) in a background thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from tau_coding.checkpoints.git import CheckpointError
from tau_coding.checkpoints.store import DEFAULT_MAX_FILE_BYTES, CheckpointStore
from tau_coding.config.paths import TauPaths
from tau_coding.session.checkpointing import SessionCheckpoints


def session_checkpoints(
    paths: TauPaths, get: Callable[[str], Any], *, disabled: bool = False
) -> SessionCheckpoints | None:
    """The checkpoints of the project in ``paths.cwd``, or None when they are off or cannot be
    taken (no git program)."""
    if disabled or get("checkpoints.enabled") is False:
        return None
    prune_daily(paths, get("checkpoints.retentionDays"))
    limit = get("checkpoints.maxFileBytes")
    max_bytes = limit if isinstance(limit, int) and limit > 0 else DEFAULT_MAX_FILE_BYTES
    try:
        store = CheckpointStore(paths.cwd, paths.checkpoints_dir, max_file_bytes=max_bytes)
    except CheckpointError:  # no git program: the session runs without checkpoints (/rewind says so)
        return None
    return SessionCheckpoints(store)


def retention_days(value: object) -> float:
    """``checkpoints.retentionDays`` as a number of days (the default when unset or not positive)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    from tau_coding.checkpoints.retention import DEFAULT_RETENTION_DAYS

    return DEFAULT_RETENTION_DAYS


def _due(stamp_mtime: float | None, now: float) -> bool:
    return stamp_mtime is None or now - stamp_mtime > 86400


def prune_daily(paths: TauPaths, days: object) -> threading.Thread | None:
    """Prune in a daemon thread if the last prune was more than a day ago; the thread, if started."""
    root = paths.checkpoints_dir
    stamp = root / ".last-gc"
    try:
        mtime: float | None = stamp.stat().st_mtime
    except OSError:
        mtime = None
    if not root.is_dir() or not _due(mtime, time.time()):
        return None
    try:
        stamp.touch()
    except OSError:
        return None

    def work() -> None:
        # imported here: pruning runs at most once a day, so a start does not load it
        from tau_coding.checkpoints.retention import collect, referenced_ids

        sessions = paths.sessions_dir
        keep = referenced_ids(sessions.rglob("*.jsonl")) if sessions.is_dir() else set()
        collect(root, keep=keep, retention_days=retention_days(days))

    thread = threading.Thread(target=work, name="tau-checkpoints-gc", daemon=True)
    thread.start()
    return thread


__all__ = ["prune_daily", "retention_days", "session_checkpoints"]
