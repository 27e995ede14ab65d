"""CheckpointStore: snapshots of one project's files in a git object store of Tau's own.

The store is a git directory under Tau's data dir (``<TAU_HOME>/checkpoints/<hash of the
project's real path>``) with its own index; the project is its work tree. A snapshot is
``git add -A`` (only files whose stat data changed are read again) then ``write-tree``; a
checkpoint is that tree as a parentless commit with a ref of its own (``refs/tau/<id>``), so
``git gc`` keeps it until retention drops the ref. The id is the commit's hash.

One ``git ls-files`` lists what is new or changed since the index; when nothing is and the
index is the one the last snapshot left (``tau-tree`` says so), its tree is reused without
another git process, and the commit and ref are written directly (objects.py), so a checkpoint
of an unchanged project costs one git process.

``.gitignore`` files and the project's ``.git/info/exclude`` apply; files above
``max_file_bytes`` and nested repositories are left out and named in the checkpoint. Every
operation holds the store's lock, so two Tau processes in one project take turns.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tau_coding.checkpoints.changes import FileChange, parse_diff
from tau_coding.checkpoints.first_snapshot import write_first_snapshot
from tau_coding.checkpoints.git import CheckpointError, Git
from tau_coding.checkpoints.objects import commit_body, put_file, write_object, write_ref
from tau_coding.checkpoints.skips import SkipList, Skipped, classify, still_skipped

DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_FILES = 200_000  # a tree larger than this (a home directory, /) is not snapshotted
REF_PREFIX = "refs/tau/"
BULK_FILES = 200  # more new or changed files than this go into one pack (see _snapshot)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A snapshot kept under ``id`` (a commit hash). ``reused``: nothing had changed since the
    previous one, whose id this is."""

    id: str
    tree: str
    skipped: tuple[Skipped, ...] = ()
    reused: bool = False


@dataclass(frozen=True, slots=True)
class Restored:
    """What a restore did: the ``before`` checkpoint of the files as they were (None when
    they already matched) and the files it changed."""

    before: Checkpoint | None
    changes: tuple[FileChange, ...]


@contextlib.contextmanager
def store_lock(git_dir: Path) -> Iterator[None]:
    """Hold the store's lock: snapshots, restores and pruning of one store never overlap (a
    prune must not delete the blobs a snapshot has written but not yet committed)."""
    with open(git_dir / "tau.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def store_dir(checkpoints_dir: Path, project: Path) -> Path:
    """Where the store of ``project`` lives (keyed by a hash of its real path)."""
    key = hashlib.sha256(str(project.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return checkpoints_dir / key


class CheckpointStore:
    def __init__(
        self, project: Path, checkpoints_dir: Path, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    ) -> None:
        self.project = project.resolve()
        self.git_dir = store_dir(checkpoints_dir, self.project)
        self.max_file_bytes = max_file_bytes
        self._index = self.git_dir / "tau-index"
        self._git = Git(self.git_dir, self.project, self._index)
        self._skips = SkipList(self.git_dir)
        self._last_tree = LastTree(self.git_dir / "tau-tree")
        self._last: Checkpoint | None = None

    # -- the store ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[Git]:
        if not self.project.is_dir():
            raise CheckpointError(f"{self.project} is not a directory")
        self.git_dir.mkdir(parents=True, exist_ok=True)
        with store_lock(self.git_dir):
            if not (self.git_dir / "HEAD").exists():
                self._init()
            yield self._git

    def _init(self) -> None:
        self._git.run(["init", "-q", "--template=", str(self.git_dir)])
        (self.git_dir / "tau-project").write_text(str(self.project) + "\n", encoding="utf-8")
        user_exclude = self.project / ".git" / "info" / "exclude"
        settings = [("core.logAllRefUpdates", "false")]
        if user_exclude.is_file():  # the user's own per-repository ignores apply too
            settings.append(("core.excludesFile", str(user_exclude)))
        for key, value in settings:
            self._git.run(["config", key, value])

    # -- snapshots ----------------------------------------------------------------------------------

    def _snapshot(self, git: Git) -> tuple[str, tuple[Skipped, ...]]:
        """Bring the index up to date with the files and write its tree."""
        limit = self.max_file_bytes
        before = self._skips.load()
        kept = still_skipped(self.project, before, limit)
        first = not self._index.exists()
        # "? path": not in the index (and not ignored); "C path": changed or deleted since.
        listed = git.run(["ls-files", "-z", "-t", "--others", "--modified", "--exclude-standard"])
        untracked, modified = _listing(listed)
        if len(untracked) > MAX_FILES:
            raise CheckpointError(f"{self.project} holds more than {MAX_FILES} files; no checkpoint taken")
        if first:  # every file is new: read each once, into one pack (first_snapshot.py)
            new = classify(self.project, [p for p in untracked if p.endswith("/")], limit)
            objects = self.git_dir / "objects"
            new |= write_first_snapshot(self.project, untracked, new, limit, objects, self._index)
            skipped = {**kept, **new}
            if skipped != before:
                self._skips.save(skipped)
        else:
            new = classify(self.project, [*untracked, *modified], limit)
            skipped = {**kept, **new}
            if skipped != before:
                self._skips.save(skipped)
            if new:
                git.run(["update-index", "-z", "--force-remove", "--stdin"], stdin=_nul(new))
            if untracked or modified or skipped != before:
                # Many new or changed files: stream them into one uncompressed pack instead of
                # one compressed file each (git gc compresses the pack later). A few: loose
                # objects, as usual.
                bulk = ["-c", "core.bigFileThreshold=1", "-c", "core.compression=0"]
                many = len(untracked) + len(modified) > BULK_FILES
                git.run([*(bulk if many else []), "add", "-A", "--ignore-errors", "--", "."], check=False)
        tree = self._last_tree.read(self._index)
        if tree is None:
            tree = git.text(["write-tree"])
            self._last_tree.write(self._index, tree)
        return tree, tuple(Skipped(path, reason) for path, reason in sorted(skipped.items()))

    def take(self, *, session: str = "", kind: str = "prompt") -> Checkpoint:
        """A checkpoint of the files now, always under a new id; when nothing changed since
        the previous one its tree is reused (``reused``) and no file is read.

        ``session`` (the session file, or id) is kept in the commit for retention (gc.py)."""
        with self._locked() as git:
            tree, skipped = self._snapshot(git)
            reused = self._last is not None and self._last.tree == tree
            checkpoint = Checkpoint(self._commit(git, tree, session, kind), tree, skipped, reused)
            self._last = checkpoint
            return checkpoint

    def _commit(self, git: Git, tree: str, session: str, kind: str) -> str:
        # The time in nanoseconds keeps two checkpoints of one tree apart (ids are unique).
        now = time.time_ns()
        message = f"tau checkpoint ({kind})\n\nsession: {session}\nat: {now}\n"
        commit = write_object(self.git_dir, "commit", commit_body(tree, message, now // 1_000_000_000))
        write_ref(self.git_dir, REF_PREFIX + commit, commit)
        return commit

    def _tree_of(self, git: Git, checkpoint_id: str) -> str:
        if not checkpoint_id or any(ch not in "0123456789abcdef" for ch in checkpoint_id):
            raise CheckpointError(f"no checkpoint {checkpoint_id!r} in this project")
        out = git.run(["rev-parse", "-q", "--verify", f"{checkpoint_id}^{{tree}}"], check=False).strip()
        if not out:
            raise CheckpointError(f"no checkpoint {checkpoint_id!r} in this project (pruned?)")
        return out.decode()

    # -- comparing and restoring --------------------------------------------------------------------

    def changes_since(self, checkpoint_ids: Sequence[str]) -> dict[str, tuple[FileChange, ...]]:
        """For each checkpoint, what differs between it and the files now (one snapshot)."""
        with self._locked() as git:
            now, _ = self._snapshot(git)
            out: dict[str, tuple[FileChange, ...]] = {}
            for checkpoint_id in checkpoint_ids:
                try:
                    out[checkpoint_id] = tuple(self._diff(git, self._tree_of(git, checkpoint_id), now))
                except CheckpointError:
                    continue
            return out

    def _diff(self, git: Git, old: str, new: str) -> list[FileChange]:
        args = ["diff-tree", "-r", "-z", "--no-renames", "--raw", "--numstat", old, new]
        return parse_diff(git.run(args))

    def preview(self, checkpoint_id: str) -> tuple[FileChange, ...]:
        """What restoring ``checkpoint_id`` would change: the files now, against it."""
        with self._locked() as git:
            now, _ = self._snapshot(git)
            return tuple(self._diff(git, now, self._tree_of(git, checkpoint_id)))

    def restore(self, checkpoint_id: str, *, session: str = "") -> Restored:
        """Make the files what ``checkpoint_id`` holds. The files as they are first become a
        checkpoint of their own (``before``), so the restore can itself be undone. Files the
        snapshots never held (ignored, skipped, nested repositories) are not touched."""
        with self._locked() as git:
            target = self._tree_of(git, checkpoint_id)
            now, skipped = self._snapshot(git)
            if now == target:
                return Restored(None, ())
            before = Checkpoint(self._commit(git, now, session, "before rewind"), now, skipped)
            changes = tuple(self._diff(git, now, target))
            git.run(["read-tree", "-m", "-u", now, target])
            self._last = None
            return Restored(before, changes)


def _listing(output: bytes) -> tuple[list[str], list[str]]:
    """The untracked and the changed paths of ``ls-files -z -t -o -m`` output."""
    untracked: list[str] = []
    changed: list[str] = []
    for record in output.split(b"\0"):
        if record[:2] == b"? ":
            untracked.append(record[2:].decode("utf-8", "surrogateescape"))
        elif record[:2] == b"C ":
            changed.append(record[2:].decode("utf-8", "surrogateescape"))
    return untracked, changed


class LastTree:
    """The tree the last snapshot wrote, with the index it was written from (its size, time
    and inode): while the index is unchanged and nothing is listed as new or changed, the tree
    is the same and ``write-tree`` need not run."""

    def __init__(self, path: Path) -> None:
        self._path = path

    @staticmethod
    def _signature(index: Path) -> str | None:
        try:
            info = index.stat()
        except OSError:
            return None
        return f"{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"

    def read(self, index: Path) -> str | None:
        try:
            signature, tree = self._path.read_text(encoding="ascii").split()
        except (OSError, ValueError):
            return None
        whole = len(tree) == 40 and all(ch in "0123456789abcdef" for ch in tree)  # not torn
        return tree if whole and signature == self._signature(index) else None

    def write(self, index: Path, tree: str) -> None:
        signature = self._signature(index)
        if signature is not None:
            put_file(self._path, f"{signature} {tree}\n".encode("ascii"))


def _nul(paths: dict[str, str]) -> bytes:
    return b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)


__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "REF_PREFIX",
    "Checkpoint",
    "CheckpointStore",
    "Restored",
    "store_dir",
    "store_lock",
]
