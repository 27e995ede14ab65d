"""A session's request checkpoint on disk: resuming a long session converts only what is new.

A provider keeps the wire conversion of its conversation between requests
(``tau_ai.request_cache``); without more, a resumed session's first request converts the whole
history again (0.7 s for 100,000 messages). So that conversion, up to the latest user message
it covers, is written beside the session file (``<file>.requests``, written to a temporary file
and renamed over), and the next open of the session takes it up. It is written twice at most
per open: by a thread while the first request with a new user message is sent (a run killed
later still leaves it, and a closing process does not wait for it), and when the session
closes if the latest one covers more by then.

It is used only when all of these still hold, else ignored (and replaced by the next one written):
the session file is the one it was written for, or that file with more lines after it (the same
inode, at least as long, the same last 4 KiB up to where it ended: a run killed before its
close, or Pi, only appends), the replayed context starts with the same entries (a digest of
their ids), and the provider's model is the one it was made for (``Checkpoint.key``; the
system prompt may differ: it names the date, and its item is made anew); the bytes carry a CRC. Its big runs of history are
not read into memory: they are sent from the file as they are needed (``tau_ai.stored_text``),
which is safe because the file is only ever replaced by a rename, never written in place. The session file stays the only source of truth, and Pi never reads the cache.
Small sessions (under ``MINIMUM_MESSAGES``) convert quickly and get none.
"""

from __future__ import annotations

import contextlib
import hashlib
import operator
import os
import threading
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import orjson

from tau_agent.messages import (
    AgentMessage,
    LlmMessage,
    extend_llm_view,
)
from tau_agent.provider import ModelProvider
from tau_agent.session.entries import MessageEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.session.state import SessionState
from tau_ai.http_provider import HttpProvider
from tau_ai.request_cache import RequestCache
from tau_ai.request_checkpoint import Checkpoint, read, write
from tau_ai.stored_text import SpillFile
from tau_coding import __version__
from tau_coding.session.store.paths import request_checkpoint_path

MINIMUM_MESSAGES = 1000
TAIL = 4096  # the bytes before a session file's end that a checkpoint names (by their CRC-32)
cache_path = request_checkpoint_path


def _file_mark(path: Path) -> list[int]:
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _tail_crc(fd: int, size: int) -> int:
    start = max(size - TAIL, 0)
    return zlib.crc32(os.pread(fd, size - start, start))


def _file_is_as_left(path: Path, mark: object, tail: object) -> bool:
    """``path`` is the file a checkpoint was written for (``mark``: its size and inode, and
    ``tail``), possibly with more lines appended since: the same inode, no shorter, the same
    bytes before where it ended."""
    if not isinstance(mark, list) or len(mark) != 2 or type(tail) is not int:
        return False
    size, inode = mark
    with open(path, "rb") as session:
        st = os.fstat(session.fileno())
        if type(size) is not int or st.st_ino != inode or st.st_size < size:
            return False
        return _tail_crc(session.fileno(), size) == tail


def _ids_digest(ids: Sequence[str | None]) -> str:
    try:
        text = "\n".join(ids)  # type: ignore[arg-type]  # None (a synthetic result) is rare
    except TypeError:
        text = "\n".join(i or "" for i in ids)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def llm_view(messages: Sequence[AgentMessage]) -> list[LlmMessage]:
    """What the agent loop sends a model for ``messages`` (without a context transform)."""
    out: list[LlmMessage] = []
    extend_llm_view(messages, out)
    return out


def write_checkpoint(
    session_file: Path, checkpoint: Checkpoint, records: int, ids: Sequence[str | None]
) -> None:
    """Keep ``checkpoint``, which covers the model view of the session's first ``records``
    context messages (entry ids ``ids``), for the session file as it is now."""
    with open(session_file, "rb") as session:
        st = os.fstat(session.fileno())
        mark = [st.st_size, st.st_ino]  # no mtime: an append changes it, and appends are fine
        tail = _tail_crc(session.fileno(), st.st_size)
    head = {"tau": __version__, "session": mark, "tail": tail, "records": records, "ids": _ids_digest(ids)}
    target = cache_path(session_file)
    # One name, not one per process: a writer killed midway leaves a file the next one writes
    # over. Only the process holding the session's lock writes here, one checkpoint at a time.
    temp = target.with_name(f".{target.name}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(orjson.dumps(head) + b"\n")
            write(checkpoint, out)
        os.replace(temp, target)
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()


def read_checkpoint(session_file: Path, state: SessionState) -> tuple[Checkpoint, int] | None:
    """The kept checkpoint and how many of ``state``'s messages it covers, if it is still good
    for ``session_file`` replayed as ``state``; None otherwise (never raises for a bad cache)."""
    try:
        with cache_path(session_file).open("rb") as source:
            try:
                head = orjson.loads(source.readline(1 << 16))
                fresh = head["tau"] == __version__
                fresh = fresh and _file_is_as_left(session_file, head["session"], head["tail"])
                records, digest = head["records"], head["ids"]
            except (orjson.JSONDecodeError, KeyError, TypeError):
                return None
            if not fresh or type(records) is not int or not 0 < records <= len(state.messages):
                return None
            if digest != _ids_digest(state.message_entry_ids[:records]):
                return None
            checkpoint = read(source, in_file=True)  # written only by write_checkpoint: renamed
    except OSError:
        return None
    return None if checkpoint is None else (checkpoint, records)


def _request_cache(provider: ModelProvider) -> RequestCache | None:
    return provider.request_cache if isinstance(provider, HttpProvider) else None


def _session_file(log: SessionLog) -> Path | None:
    storage = log.storage
    if isinstance(storage, JsonlSessionStorage) and not storage.read_only:
        return storage.path
    return None


class RequestCheckpoints:
    """One open session's checkpoint: taken up when it opens, kept while its first new request
    is on its way, and again when it closes if a later one covers more."""

    def __init__(
        self,
        log: SessionLog,
        state: SessionState,
        record: Callable[[], Sequence[AgentMessage]] | None = None,
        minimum: int = MINIMUM_MESSAGES,
    ) -> None:
        """``state``: the session as it was replayed for the agent (its messages are the
        agent's record so far). ``record``: the agent's record as it is now; given, the
        checkpoint of the first request that reaches a new user message is written at once, in
        a thread, while the request is sent (so a closing process does not wait for it, and a
        process killed later still leaves it). A checkpoint covers ``minimum`` messages or more."""
        self._log = log
        self._resumed = list(state.messages)
        self._resumed_ids = list(state.message_entry_ids)
        self._entries_at_open = len(log.entries)
        self._record = record
        self._minimum = minimum
        self._taken: tuple[int, list[int]] | None = None  # (messages covered, session file mark)
        self._kept: tuple[str, int, int] | None = None  # written while open: (key, messages, inode)
        self._writing: threading.Thread | None = None
        file = _session_file(log)
        self._found = read_checkpoint(file, state) if file is not None and log.storage.entries else None
        self._spill = SpillFile(file.parent) if file is not None else None

    def attach(self, provider: ModelProvider) -> None:
        """Let ``provider`` keep the runs of a long history it converts in an unnamed file beside
        the session file, not in memory (what a checkpoint taken up does too: a 100,000-message
        history is about 24 MB of wire JSON), and have it report its first new checkpoint."""
        cache = _request_cache(provider)
        if cache is None:
            return
        if self._spill is not None:
            cache.keep_runs = self._spill.keep
        if self._record is not None:
            cache.marked = self._keep_early

    def take_up(self, provider: ModelProvider) -> bool:
        """``attach`` ``provider`` and give it the kept conversion for its next request (which
        uses it if the model is the one it was made for); True if it was given."""
        self.attach(provider)
        cache, found, file = _request_cache(provider), self._found, _session_file(self._log)
        self._found = None
        if cache is None or found is None or file is None:
            return False
        checkpoint, records = found
        view = llm_view(self._resumed[:records])
        if len(view) != checkpoint.messages or not cache.resume(checkpoint, view):
            return False
        self._taken = (checkpoint.messages, _file_mark(file))
        return True

    def leave(self, provider: ModelProvider, record: Sequence[AgentMessage]) -> None:
        """After the session file was closed: keep the provider's latest checkpoint for the
        next open, if it covers the minimum of messages and they can be told by their entries
        (the agent's ``record`` is what the session replays), unless it was kept while open."""
        self.settle()
        cache = _request_cache(provider)
        prepared = None if cache is None else self._prepared(cache, record)
        if prepared is None:
            return
        with contextlib.suppress(OSError):
            write_checkpoint(*prepared)

    def settle(self) -> None:
        """Wait for the checkpoint being written, if one is (before another open of the file)."""
        writing, self._writing = self._writing, None
        if writing is not None:
            writing.join()

    def _keep_early(self, cache: RequestCache) -> None:
        """The first new checkpoint of this open, written in a thread (``marked``)."""
        if self._writing is not None or self._kept is not None or self._record is None:
            return
        prepared = self._prepared(cache, self._record())
        if prepared is None:
            return
        file, checkpoint, records, ids = prepared
        try:
            self._kept = (checkpoint.key, checkpoint.messages, os.stat(file).st_ino)
        except OSError:
            return
        self._writing = threading.Thread(
            target=self._write, args=(file, checkpoint, records, ids), name="tau-request-checkpoint"
        )
        self._writing.start()

    def _write(self, file: Path, checkpoint: Checkpoint, records: int, ids: list[str | None]) -> None:
        try:
            write_checkpoint(file, checkpoint, records, ids)
        except OSError:
            self._kept = None  # only a cache: the close tries again

    def _prepared(
        self, cache: RequestCache, record: Sequence[AgentMessage]
    ) -> tuple[Path, Checkpoint, int, list[str | None]] | None:
        """What ``write_checkpoint`` takes for ``cache``'s latest checkpoint, or None when there
        is nothing worth keeping (no file, too short, not told by its entries, already taken up)."""
        file = _session_file(self._log)
        if file is None or not file.exists():
            return None
        taken = cache.checkpoint()
        if taken is None or taken[0].messages < self._minimum:
            return None
        checkpoint, covered = taken
        try:
            if self._taken == (checkpoint.messages, _file_mark(file)):
                return None  # the same checkpoint for the same file: already kept
            if self._kept == (checkpoint.key, checkpoint.messages, os.stat(file).st_ino):
                return None  # kept while open, for the file as it was then: appends since are fine
        except OSError:
            return None
        records = _records_for(record, covered)
        if records is None:
            return None
        ids = self._entry_ids(record[:records])
        return None if ids is None else (file, checkpoint, records, ids)

    def _entry_ids(self, messages: Sequence[AgentMessage]) -> list[str | None] | None:
        """The entry ids of the agent's record ``messages`` (a prefix of it), as a replay of the
        session would list them; None if they cannot be told."""
        resumed = self._resumed
        known = min(len(resumed), len(messages))
        if all(map(operator.is_, messages[:known], resumed[:known])):
            ids = self._resumed_ids[:known]
            by_message = {
                id(e.message): e.id
                for e in self._log.entries[self._entries_at_open :]
                if isinstance(e, MessageEntry)
            }
            for message in messages[known:]:
                entry_id = by_message.get(id(message))
                if entry_id is None:
                    return None
                ids.append(entry_id)
            return ids
        state = self._log.state()  # the record was replaced (a compaction, a move in the tree)
        if len(state.messages) < len(messages) or not all(map(operator.is_, messages, state.messages)):
            return None
        return state.message_entry_ids[: len(messages)]


def _records_for(record: Sequence[AgentMessage], covered: list[LlmMessage]) -> int | None:
    """How many of the record's messages make up the model view ``covered``, or None."""
    # The usual record holds the model's messages alone: equal to ``covered`` up to its last,
    # it is its own view there (``covered`` came through the view, so it holds no failed empty
    # reply the view would leave out), and a C-speed comparison stands for building the view.
    if covered:
        last = covered[-1]
        for index in range(len(record) - 1, len(covered) - 2, -1):
            if record[index] is last:
                if index + 1 == len(covered) and list(record[: index + 1]) == covered:
                    return index + 1
                break
    view = llm_view(record)
    if len(view) < len(covered) or view[: len(covered)] != covered:
        return None
    if not covered:
        return 0
    last = covered[-1]  # a user message: its place in the record ends what is covered
    for index in range(len(record) - 1, -1, -1):
        if record[index] is last:
            return index + 1
    return None


__all__ = ["MINIMUM_MESSAGES", "RequestCheckpoints", "cache_path", "llm_view", "read_checkpoint"]
