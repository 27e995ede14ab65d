"""``compaction.*`` settings and the thresholds they imply. Pure.

The settings are Pi's (``reserveTokens`` 16,384, ``keepRecentTokens`` 20,000), sized for
windows of 100k tokens and more; each is scaled down to a quarter of a smaller window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tau_coding.session.compaction.context_usage import ContextUsage


@dataclass(frozen=True, slots=True)
class CompactionSettings:
    """``compaction.*`` settings: on/off, tokens left free for a reply, tokens kept verbatim."""

    enabled: bool = True
    reserve_tokens: int = 16_384
    keep_recent_tokens: int = 20_000

    @classmethod
    def from_settings(cls, get: Callable[[str], Any]) -> CompactionSettings:
        """Read ``compaction.enabled/reserveTokens/keepRecentTokens``; missing keys keep defaults."""
        default = cls()
        enabled, reserve, keep = (
            get("compaction.enabled"),
            get("compaction.reserveTokens"),
            get("compaction.keepRecentTokens"),
        )
        return cls(
            enabled=default.enabled if enabled is None else bool(enabled),
            reserve_tokens=default.reserve_tokens if reserve is None else max(0, int(reserve)),
            keep_recent_tokens=default.keep_recent_tokens if keep is None else max(0, int(keep)),
        )

    def reserve_for(self, window: int) -> int:
        """Tokens left free for a reply in a ``window``: the setting, but never more than a
        quarter of the window (a 16k local model would otherwise have no room at all)."""
        return max(0, min(self.reserve_tokens, window // 4))

    def threshold(self, window: int) -> int:
        """Context size above which automatic compaction runs."""
        return window - self.reserve_for(window)

    def over_threshold(self, usage: ContextUsage) -> bool:
        return usage.tokens > self.threshold(usage.window)

    def keep_budget(self, window: int) -> int:
        """Tokens to keep verbatim: the setting, but never more than a quarter of the window
        nor half of what may be used, so a compaction always has something to summarise."""
        return max(0, min(self.keep_recent_tokens, window // 4, self.threshold(window) // 2))


__all__ = ["CompactionSettings"]
