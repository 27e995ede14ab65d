"""Crash trials' CI share: ``tau -p`` killed with SIGKILL at 20 random moments of a real run
leaves a session that follows the format, opens in Tau's reader and lost at most the entry
being written. The long version is ``python bench/crash_tau.py --trials 200``.
"""

from __future__ import annotations

from bench.crash_tau import trials


def test_tau_killed_at_random_moments_keeps_every_finished_message_and_a_readable_session() -> None:
    assert trials(20, seed=15) == []
