"""What a session picker shows, read cheaply: header, name, first prompt, message count, time.

A listing must not parse whole files: it reads each file's bytes and scans them. Every line
Tau or Pi writes starts with ``{"type":"<kind>"`` and raw newlines never occur inside a
JSON line, so counting ``\\n{"type":"message"`` counts message entries, and only three
lines per file are ever parsed: the header, the first user message and the latest
``session_info``. A file that is not a session (or cannot be read) is left out.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tau_agent.session.codec import CodecError, header_from_dict
from tau_agent.session.entries import SessionHeader

_MESSAGE = b'\n{"type":"message"'
_INFO = b'\n{"type":"session_info"'
_FIRST_PROMPT_SCAN = 50  # message lines looked at to find the first user prompt


@dataclass(frozen=True, slots=True)
class SessionInfo:
    path: Path
    id: str
    cwd: str
    name: str | None
    parent_session: str | None
    created: datetime
    modified: datetime
    message_count: int
    first_message: str

    @property
    def title(self) -> str:
        """The name if the session has one, else its first prompt (Pi's display rule)."""
        return self.name or self.first_message


def read_session_info(path: Path) -> SessionInfo | None:
    """The picker's view of one file, or None when it is not a readable session file."""
    try:
        with path.open("rb") as handle:
            data = handle.read()
            mtime = os.fstat(handle.fileno()).st_mtime
    except OSError:
        return None
    return _info(path, data, mtime)


def _info(path: Path, data: bytes, mtime: float) -> SessionInfo | None:
    end = data.find(b"\n")
    try:
        header = header_from_dict(json.loads(data[: end if end >= 0 else len(data)]))
    except (ValueError, CodecError):
        return None
    count = data.count(_MESSAGE)
    return SessionInfo(
        path=path,
        id=header.id,
        cwd=header.cwd,
        name=_latest_name(data),
        parent_session=header.parent_session,
        created=_parse_time(header.timestamp, mtime),
        modified=datetime.fromtimestamp(mtime, UTC),
        message_count=count,
        first_message=_first_prompt(data) or "(no messages)",
    )


def _line_at(data: bytes, start: int) -> Any:
    end = data.find(b"\n", start + 1)
    try:
        return json.loads(data[start + 1 : end if end >= 0 else len(data)])
    except ValueError:
        return None


def _first_prompt(data: bytes) -> str:
    at = data.find(_MESSAGE)
    for _ in range(_FIRST_PROMPT_SCAN):
        if at < 0:
            return ""
        value = _line_at(data, at)
        message = value.get("message") if isinstance(value, dict) else None
        if isinstance(message, dict) and message.get("role") == "user":
            text = _text_of(message.get("content"))
            if text:
                return text
        at = data.find(_MESSAGE, at + 1)
    return ""


def _latest_name(data: bytes) -> str | None:
    at = data.rfind(_INFO)
    while at >= 0:
        value = _line_at(data, at)
        name = value.get("name") if isinstance(value, dict) else None
        if isinstance(name, str) and name.strip():
            return name.strip()
        at = data.rfind(_INFO, 0, at)
    return None


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        return " ".join(p for p in parts if isinstance(p, str))
    return ""


def _parse_time(timestamp: str, fallback: float) -> datetime:
    try:
        return datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return datetime.fromtimestamp(fallback, UTC)


def list_sessions(directory: Path) -> list[SessionInfo]:
    """Sessions in one folder, most recently modified first."""
    try:
        names = [n for n in os.listdir(directory) if n.endswith(".jsonl")]
    except OSError:
        return []
    infos = [read_session_info(directory / n) for n in names]
    found = [i for i in infos if i is not None]
    found.sort(key=lambda i: i.modified, reverse=True)
    return found


def most_recent_session(directory: Path) -> Path | None:
    """The most recently modified session file in ``directory``: stats every file, reads only
    the first line of the candidates (newest first) until one has a session header."""
    try:
        candidates = [
            (e.stat().st_mtime, Path(e.path)) for e in os.scandir(directory) if e.name.endswith(".jsonl")
        ]
    except OSError:
        return None
    for _, path in sorted(candidates, reverse=True):
        if _header_of(path) is not None:
            return path
    return None


def find_by_id_prefix(folders: list[Path], prefix: str) -> list[Path]:
    """Session files whose id starts with ``prefix``. Files named ``<time>_<uuid>.jsonl`` (as
    Tau and Pi name them) are matched on the name and only matches have their header read;
    files named otherwise are asked their header."""
    found: list[Path] = []
    for folder in folders:
        try:
            names = [n for n in os.listdir(folder) if n.endswith(".jsonl")]
        except OSError:
            continue
        for name in names:
            named_id = name[: -len(".jsonl")].rpartition("_")[2]
            if len(named_id) != 36 or named_id.startswith(prefix):  # odd names: ask the header
                header = _header_of(folder / name)
                if header is not None and header.id.startswith(prefix):
                    found.append(folder / name)
    return found


def _header_of(path: Path) -> SessionHeader | None:
    try:
        with path.open("rb") as handle:
            return header_from_dict(json.loads(handle.readline()))
    except (OSError, ValueError, CodecError):
        return None


def list_all_sessions(root: Path) -> list[SessionInfo]:
    """Sessions of every project under ``root``, most recently modified first."""
    try:
        folders = [root / n for n in os.listdir(root) if (root / n).is_dir()]
    except OSError:
        return []
    found = [info for folder in folders for info in list_sessions(folder)]
    found.sort(key=lambda i: i.modified, reverse=True)
    return found


__all__ = [
    "SessionInfo",
    "find_by_id_prefix",
    "list_all_sessions",
    "list_sessions",
    "most_recent_session",
    "read_session_info",
]
