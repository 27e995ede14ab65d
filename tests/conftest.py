"""Settings shared by the whole suite."""

from __future__ import annotations

from hypothesis import settings

# Property tests check behaviour, not speed (bench/ measures speed): a loaded CI machine must not
# turn a slow example into a failure.
settings.register_profile("tau", deadline=None)
settings.load_profile("tau")
