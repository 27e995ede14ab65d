"""Write a file so that a reader or a crash sees the old bytes or the new ones, never half.

The bytes go to a temporary file in the same directory (same filesystem, so ``os.replace``
is atomic), are flushed to disk, take over the old file's permission bits, and then replace
it. A symlinked path is written through to its target, so the link stays a link.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

DEFAULT_FILE_MODE = 0o666


def _umasked(mode: int) -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mode & ~mask


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> Path:
    """Replace the file at ``path`` (through symlinks) with ``data``; returns the path written.

    Missing parent directories are created. ``mode`` sets the permissions (the temp file is
    private until then, so 0o600 secrets are never readable by others); otherwise a new file
    gets the usual mode (0666 less the umask) and an existing one keeps its mode. Raises
    OSError on failure, leaving the old file.
    """
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode = _umasked(DEFAULT_FILE_MODE)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tau-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    return target
