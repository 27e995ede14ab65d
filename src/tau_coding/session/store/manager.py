"""SessionManager: the app's sessions on disk, one folder per working directory (Pi's layout).

It decides where files go and which file a command means; everything that happens inside
one session is ``tau_agent.session.log.SessionLog``'s business. Paths come in as arguments
(see paths.py for the defaults), nothing is created before it is needed: a new session's
file appears with its first assistant message, and folders with their first file.
"""

from __future__ import annotations

import os
from pathlib import Path

from tau_agent.messages import AssistantMessage
from tau_agent.session.branch import Branch
from tau_agent.session.entries import MessageEntry, SessionHeader
from tau_agent.session.jsonl import FsyncPolicy, JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_coding.session.store.listing import (
    SessionInfo,
    find_by_id_prefix,
    list_all_sessions,
    list_sessions,
    most_recent_session,
)
from tau_coding.session.store.paths import request_checkpoint_path, session_dir, session_file_name

REPAIR_DETAILS = 3  # problems named in the notice; the rest are counted


def repair_notice(log: SessionLog) -> str | None:
    """One line saying what loading the session's file found and repaired, or None if nothing."""
    problems = [w.split(": ", 1)[-1] for w in log.storage.warnings]
    if not problems:
        return None
    shown = "; ".join(problems[:REPAIR_DETAILS])
    more = f"; and {len(problems) - REPAIR_DETAILS} more" if len(problems) > REPAIR_DETAILS else ""
    storage = log.storage
    side = storage.side_file if isinstance(storage, JsonlSessionStorage) else None
    kept = f" (bytes the repair removes are kept in {side.name})" if side is not None else ""
    return f"session {log.header.id[:8]} was repaired: {shown}{more}{kept}"


class SessionNotFoundError(LookupError):
    """No session matches a path or id prefix (or more than one id does)."""


class SessionManager:
    """Sessions of one working directory ``cwd`` under ``root`` (``<TAU_HOME>/sessions``)."""

    def __init__(
        self,
        root: Path,
        cwd: str,
        *,
        directory: Path | None = None,
        fsync: FsyncPolicy = "on_create",
    ) -> None:
        """``directory`` overrides the per-cwd folder (``--session-dir``)."""
        self.root = root
        self.cwd = cwd
        self.directory = directory if directory is not None else session_dir(root, cwd)
        self.fsync: FsyncPolicy = fsync

    # -- opening ------------------------------------------------------------------------------

    def new(self, parent_session: str | None = None) -> SessionLog:
        """A fresh session; its file is written with the first assistant message."""
        header = SessionHeader.new(self.cwd, parent_session)
        path = self.directory / session_file_name(header)
        return SessionLog(JsonlSessionStorage.create(path, header, fsync=self.fsync))

    def new_at(self, path: Path) -> SessionLog:
        """A fresh session kept at ``path`` (``--session`` naming a file that does not exist yet);
        the folder is made when the file is first written."""
        header = SessionHeader.new(self.cwd)
        return SessionLog(JsonlSessionStorage.create(path.absolute(), header, fsync=self.fsync))

    def in_memory(self) -> SessionLog:
        """A session that is never written (``--no-session``)."""
        return SessionLog(InMemorySessionStorage(SessionHeader.new(self.cwd)))

    def open(self, ref: str | Path, *, read_only: bool = False) -> SessionLog:
        """Open a file by path, or by (a prefix of) its session id: this folder first, then all.

        Raises SessionNotFoundError, SessionLockedError (another Tau process writes it), or
        SessionFileError (not a session file). Check ``is_foreign`` to offer a fork instead.
        """
        path = self.resolve(ref)
        return SessionLog(JsonlSessionStorage.open(path, read_only=read_only, fsync=self.fsync))

    def continue_recent(self) -> SessionLog:
        """The most recently modified session of this folder, or a new one if there is none."""
        latest = most_recent_session(self.directory)
        return self.new() if latest is None else self.open(latest)

    def resolve(self, ref: str | Path) -> Path:
        """The file ``ref`` names: an existing path, else a unique id prefix."""
        if not str(ref).strip():
            raise SessionNotFoundError("no session given")
        candidate = Path(ref).expanduser()
        if candidate.is_file():
            return candidate.resolve()
        text = str(ref)
        if os.sep in text or text.endswith(".jsonl"):
            raise SessionNotFoundError(f"no session file at {text}")
        everywhere = [p for p in _folders(self.root) if p != self.directory]
        for folders in ([self.directory], everywhere):
            matches = find_by_id_prefix(folders, text)
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                raise SessionNotFoundError(
                    f"session id prefix {text!r} is ambiguous ({len(matches)} sessions)"
                )
        raise SessionNotFoundError(f"no session with id starting {text!r}")

    def is_foreign(self, log: SessionLog) -> bool:
        """Whether the session was started in another working directory."""
        return bool(log.header.cwd) and log.header.cwd != self.cwd

    # -- listing ------------------------------------------------------------------------------

    def list_cwd(self) -> list[SessionInfo]:
        """This folder's sessions, most recent first."""
        return list_sessions(self.directory)

    def list_all(self) -> list[SessionInfo]:
        """Every project's sessions, most recent first."""
        return list_all_sessions(self.root)

    # -- copies and removal ---------------------------------------------------------------------

    def fork(self, log: SessionLog, entry_id: str | None) -> SessionLog:
        """A new session holding ``log``'s path up to ``entry_id`` (None: empty), labels kept;
        ``parentSession`` in its header names the source file. The source is not changed."""
        parent = _storage_path(log)
        source = log.storage if isinstance(log.storage, JsonlSessionStorage) else None
        return self._copy(log.branch(entry_id), str(parent) if parent else None, source)

    def fork_from(self, source: str | Path) -> SessionLog:
        """Copy a whole session (say, from another project) into this folder, with this cwd."""
        path = self.resolve(source)
        with JsonlSessionStorage.open(path, read_only=True) as storage:
            return self._copy(Branch(list(storage.entries)), str(path), storage)

    def _copy(
        self, branch: Branch, parent_session: str | None, source: JsonlSessionStorage | None = None
    ) -> SessionLog:
        header = SessionHeader.new(self.cwd, parent_session)
        path = self.directory / session_file_name(header)
        entries = branch.entries
        if any(isinstance(e, MessageEntry) and isinstance(e.message, AssistantMessage) for e in entries):
            return SessionLog(
                JsonlSessionStorage.create_from(path, header, entries, fsync=self.fsync, source=source),
                made_from=branch,
            )
        storage = JsonlSessionStorage.create(path, header, fsync=self.fsync)
        for entry in entries:  # nothing worth a file yet: stays buffered, as for a new session
            storage.append(entry)
        return SessionLog(storage, made_from=branch)

    def delete(self, ref: str | Path) -> Path:
        """Remove a session file (refused while another Tau process has it open)."""
        path = self.resolve(ref)
        JsonlSessionStorage.open(path).close()  # raises SessionLockedError if in use
        path.unlink()
        request_checkpoint_path(path).unlink(missing_ok=True)
        return path


def _folders(root: Path) -> list[Path]:
    try:
        return [root / name for name in sorted(os.listdir(root)) if (root / name).is_dir()]
    except OSError:
        return []


def _storage_path(log: SessionLog) -> Path | None:
    storage = log.storage
    return storage.path if isinstance(storage, JsonlSessionStorage) else None


__all__ = ["SessionManager", "SessionNotFoundError"]
