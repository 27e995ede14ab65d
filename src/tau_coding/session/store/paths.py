"""Where sessions live: ``<TAU_HOME>/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl`` (Pi's layout).

Pure functions of their arguments; where TAU_HOME itself is comes from
``tau_coding.config.paths.TauPaths``.
"""

from __future__ import annotations

import re
from pathlib import Path

from tau_agent.session.entries import SessionHeader

_SEPARATORS = re.compile(r"[/\\:]")


def cwd_dir_name(cwd: str) -> str:
    """``/home/me/proj`` -> ``--home-me-proj--``: the leading separator dropped, the others
    (``/``, ``\\``, ``:``) turned into ``-``, as Pi names its folders."""
    trimmed = cwd[1:] if cwd[:1] in ("/", "\\") else cwd
    return f"--{_SEPARATORS.sub('-', trimmed)}--"


def session_dir(root: Path, cwd: str) -> Path:
    return root / cwd_dir_name(cwd)


def session_file_name(header: SessionHeader) -> str:
    """``2024-12-03T14-00-00-000Z_<uuid>.jsonl``: the header's time with ``:`` and ``.`` as ``-``."""
    stamp = header.timestamp.replace(":", "-").replace(".", "-")
    return f"{stamp}_{header.id}.jsonl"


def request_checkpoint_path(session_file: Path) -> Path:
    """``<session file>.requests``: the request checkpoint kept beside a session file
    (``tau_coding.session.request_checkpoints``); Pi's and Tau's listings skip it."""
    return session_file.with_name(session_file.name + ".requests")


__all__ = ["cwd_dir_name", "request_checkpoint_path", "session_dir", "session_file_name"]
