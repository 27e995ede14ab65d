"""Which files a stretch of conversation read and changed, carried from summary to summary. Pure.

The lists come from the tool calls themselves (``read`` reads; ``edit`` and ``write``
modify), so they are exact even when the summariser forgets a path. They are stored in a
compaction's or branch summary's ``details`` as ``readFiles``/``modifiedFiles`` (Pi's names)
and merged into the next one, so they survive any number of compactions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_agent.messages import AgentMessage, AssistantMessage

READ_TOOLS = frozenset({"read"})
MODIFY_TOOLS = frozenset({"edit", "write"})


@dataclass(slots=True)
class FileOps:
    read: set[str] = field(default_factory=set)
    modified: set[str] = field(default_factory=set)

    def add_messages(self, messages: Iterable[AgentMessage]) -> None:
        for message in messages:
            if type(message) is not AssistantMessage:
                continue
            for call in message.tool_calls:
                path = call.arguments.get("path")
                if not isinstance(path, str) or not path:
                    continue
                if call.name in READ_TOOLS:
                    self.read.add(path)
                elif call.name in MODIFY_TOOLS:
                    self.modified.add(path)

    def add_details(self, details: Any) -> None:
        """Merge what an earlier compaction or branch summary recorded (ignores malformed data)."""
        if not isinstance(details, dict):
            return
        for key, target in (("readFiles", self.read), ("modifiedFiles", self.modified)):
            values = details.get(key)
            if isinstance(values, list):
                target.update(v for v in values if isinstance(v, str))

    def read_only(self) -> list[str]:
        """Files read and never modified (a modified file is listed once, as modified)."""
        return sorted(self.read - self.modified)

    def to_details(self) -> dict[str, list[str]]:
        return {"readFiles": self.read_only(), "modifiedFiles": sorted(self.modified)}


def file_lists_text(ops: FileOps) -> str:
    """The lists as they are appended to a summary; empty when no file was touched."""
    sections: list[str] = []
    read = ops.read_only()
    if read:
        sections.append("<read-files>\n" + "\n".join(read) + "\n</read-files>")
    if ops.modified:
        sections.append("<modified-files>\n" + "\n".join(sorted(ops.modified)) + "\n</modified-files>")
    return "\n\n".join(sections)


_FILE_LISTS = re.compile(r"\n*<(read-files|modified-files)>.*?</\1>\n*", re.DOTALL)


def strip_file_lists(summary: str) -> str:
    """A summary without the file lists appended to it (they are rebuilt from ``details``)."""
    return _FILE_LISTS.sub("\n\n", summary).strip()


def collect_file_ops(messages: Sequence[AgentMessage], *earlier_details: Any) -> FileOps:
    ops = FileOps()
    for details in earlier_details:
        ops.add_details(details)
    ops.add_messages(messages)
    return ops


__all__ = ["FileOps", "collect_file_ops", "file_lists_text", "strip_file_lists"]
