"""A checkpoint's commit object and its ref, written into the store without running git.

Each checkpoint is a small commit (a tree, an author line, a message) and one ref
(``refs/tau/<id>``); writing both here saves two git processes per prompt. Both are git's
plain formats: a loose object is ``<kind> <size>\\0<body>`` compressed with zlib under
``objects/<2 hex>/<38 hex>``, a loose ref is the id and a newline. Each file appears whole (a
temporary file renamed into place); like git by default, neither is flushed to disk.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zlib
from pathlib import Path

IDENTITY = "tau <tau@localhost>"


def put_file(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``path`` whole: a temporary file renamed into place (not flushed to disk)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_object(git_dir: Path, kind: str, body: bytes) -> str:
    """Store a loose object (unless the store holds it loose already); its id."""
    raw = b"%s %d\0%s" % (kind.encode(), len(body), body)
    object_id = hashlib.sha1(raw).hexdigest()
    path = git_dir / "objects" / object_id[:2] / object_id[2:]
    if not path.exists():
        put_file(path, zlib.compress(raw, 1), 0o444)
    return object_id


def commit_body(tree: str, message: str, seconds: int) -> bytes:
    """A parentless commit of ``tree`` by Tau at ``seconds`` (UTC)."""
    stamp = f"{IDENTITY} {seconds} +0000"
    return f"tree {tree}\nauthor {stamp}\ncommitter {stamp}\n\n{message}".encode()


def write_ref(git_dir: Path, name: str, object_id: str) -> None:
    """Point the ref ``name`` (``refs/...``) at ``object_id``."""
    put_file(git_dir / name, f"{object_id}\n".encode(), 0o644)


__all__ = ["commit_body", "put_file", "write_object", "write_ref"]
