"""CompactionSettings: Pi's defaults for big windows, scaled to a quarter of a small one."""

from __future__ import annotations

import pytest

from tau_coding.session.compaction.context_usage import ContextUsage
from tau_coding.session.compaction.settings import CompactionSettings

DEFAULTS = CompactionSettings()


@pytest.mark.parametrize("window", [100_000, 128_000, 200_000, 1_000_000])
def test_big_windows_use_the_settings_as_they_are(window: int) -> None:
    assert DEFAULTS.threshold(window) == window - 16_384
    assert DEFAULTS.keep_budget(window) == 20_000


@pytest.mark.parametrize(
    ("window", "threshold", "keep"),
    [(16_000, 12_000, 4_000), (8_192, 6_144, 2_048), (32_768, 24_576, 8_192), (65_536, 49_152, 16_384)],
)
def test_small_windows_reserve_and_keep_at_most_a_quarter(window: int, threshold: int, keep: int) -> None:
    assert (DEFAULTS.threshold(window), DEFAULTS.keep_budget(window)) == (threshold, keep)
    assert DEFAULTS.keep_budget(window) <= DEFAULTS.threshold(window) // 2


def test_a_16k_window_is_not_over_the_threshold_after_a_few_small_turns() -> None:
    assert not DEFAULTS.over_threshold(ContextUsage(3_000, 16_000))
    assert DEFAULTS.over_threshold(ContextUsage(12_001, 16_000))


def test_smaller_settings_are_kept() -> None:
    settings = CompactionSettings(reserve_tokens=1_000, keep_recent_tokens=500)
    assert (settings.threshold(16_000), settings.keep_budget(16_000)) == (15_000, 500)
