"""Whether a session takes checkpoints, and where they are kept (docs/checkpoints.md).

``--no-checkpoints`` or ``checkpoints.enabled: false`` turn them off; ``checkpoints.maxFileBytes``
is the size above which a file is left out of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tau_coding.checkpoints.store import DEFAULT_MAX_FILE_BYTES, CheckpointStore
from tau_coding.config.paths import TauPaths
from tau_coding.session.checkpointing import SessionCheckpoints


def session_checkpoints(
    paths: TauPaths, get: Callable[[str], Any], *, disabled: bool = False
) -> SessionCheckpoints | None:
    """The checkpoints of the project in ``paths.cwd``, or None when they are off."""
    if disabled or get("checkpoints.enabled") is False:
        return None
    limit = get("checkpoints.maxFileBytes")
    max_bytes = limit if isinstance(limit, int) and limit > 0 else DEFAULT_MAX_FILE_BYTES
    return SessionCheckpoints(CheckpointStore(paths.cwd, paths.checkpoints_dir, max_file_bytes=max_bytes))


__all__ = ["session_checkpoints"]
