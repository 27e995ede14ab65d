"""``compaction.*`` settings and the thresholds they imply. Pure."""

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

    def threshold(self, window: int) -> int:
        return window - self.reserve_tokens

    def over_threshold(self, usage: ContextUsage) -> bool:
        return usage.tokens > self.threshold(usage.window)

    def keep_budget(self, window: int) -> int:
        """Tokens to keep verbatim: the setting, but never more than half of what may be used."""
        return max(0, min(self.keep_recent_tokens, self.threshold(window) // 2))


__all__ = ["CompactionSettings"]
