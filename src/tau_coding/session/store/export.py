"""``tau --export <session> [out]``: write a session as HTML (default) or Markdown (``.md``).

The session is opened read-only (an export never waits for, or disturbs, a running Tau),
and the output is written atomically: a temp file in the same folder, then a rename.
"""

from __future__ import annotations

from pathlib import Path

from tau_agent.atomic_write import atomic_write_bytes
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_coding.session.store.export_html import session_html
from tau_coding.session.store.export_markdown import session_markdown


def export_session(source: Path, out: Path | None = None) -> Path:
    """Write ``source`` to ``out`` (default: ``<source name>.html`` in the working directory)."""
    target = out if out is not None else Path.cwd() / f"{source.stem}.html"
    with JsonlSessionStorage.open(source, read_only=True) as storage:
        log = SessionLog(storage)
        state = log.state()
        if target.suffix.lower() in (".md", ".markdown"):
            text = session_markdown(storage.header, state)
        else:
            text = session_html(storage.header, storage.entries, state)
    atomic_write_bytes(target, text.encode("utf-8"))
    return target


__all__ = ["export_session"]
