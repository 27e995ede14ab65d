"""Migration of Pi's older session formats to v3, on the parsed JSON values. Pure.

Pi's rules: v1 files had no ids (every entry gets one and hangs under the previous line; a
compaction's ``firstKeptEntryIndex`` becomes ``firstKeptEntryId``); v2 files used the
message role ``hookMessage`` for what v3 calls ``custom``.
"""

from __future__ import annotations

from typing import Any

from tau_agent.session.entries import CURRENT_VERSION, new_entry_id

Json = dict[str, Any]


def migrate(header: Json, lines: list[Json]) -> int:
    """Bring a header and its entry dicts (file order) up to v3, in place; returns the old version.

    ``lines`` are the entries after the header. v1 compactions point at a line index in the
    file (0 being the header), which is how Pi resolves ``firstKeptEntryIndex`` too.
    """
    version = header.get("version")
    old = version if isinstance(version, int) else 1
    if old < 2:
        taken: set[str] = set()
        previous: str | None = None
        for data in lines:
            eid = new_entry_id(taken.__contains__)
            taken.add(eid)
            data["id"] = eid
            data["parentId"] = previous
            previous = eid
        for data in lines:
            index = data.pop("firstKeptEntryIndex", None) if data.get("type") == "compaction" else None
            if isinstance(index, int) and 1 <= index <= len(lines):
                data["firstKeptEntryId"] = lines[index - 1]["id"]
    if old < 3:
        for data in lines:
            message = data.get("message") if data.get("type") == "message" else None
            if isinstance(message, dict) and message.get("role") == "hookMessage":
                message["role"] = "custom"
    header["version"] = max(old, CURRENT_VERSION)
    return old


__all__ = ["migrate"]
