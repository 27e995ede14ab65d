"""Why a compaction or branch summary did not happen; each message is one line for the user."""

from __future__ import annotations


class SummaryError(RuntimeError):
    """The summary could not be made; the message says why in one line."""


class CompactionCancelledError(SummaryError):
    """The user cancelled while the summary was being made."""


class NothingToCompactError(SummaryError):
    """The context is already as small as compaction can make it."""


__all__ = ["CompactionCancelledError", "NothingToCompactError", "SummaryError"]
