"""Which model and thinking level a session continues with when it is opened.

Opening a session that holds entries (``tau -c``, ``--session``, ``/resume``, RPC
``switch_session``, a fork) continues with the model and thinking level its current path
records, as a replay reads them (``tau_agent.session.state.settings_on_path``). A model or
level named on the command line wins. A recorded model that is unknown or has no
credentials is not restored: the fallback is used and a one-line warning says so. A session
with no entries on its path gets the fallback (the configured default, or what is in force).

Nothing here writes to the session: the CodingSession records a model or level only when it
differs from what the path records (``CodingSession.record_settings``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tau_agent.provider import THINKING_LEVELS, ThinkingLevel
from tau_agent.session.state import PathSettings
from tau_ai.model import Model


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """The model and thinking level a session runs with."""

    model: Model
    thinking_level: ThinkingLevel


@dataclass(frozen=True, slots=True)
class Pinned:
    """What the command line named explicitly; each set field wins over the session's record."""

    model: Model | None = None
    thinking_level: ThinkingLevel | None = None


def thinking_level(value: str) -> ThinkingLevel | None:
    """``value`` as a thinking level, or None when it is not one."""
    for level in THINKING_LEVELS:
        if level == value:
            return level
    return None


def resumed_settings(
    recorded: PathSettings,
    *,
    pinned: Pinned,
    find: Callable[[str, str], Model | None],
    fallback: Callable[[], SessionSettings],
) -> tuple[SessionSettings, str | None]:
    """The settings to continue with, and a warning line when the recorded model cannot be used.

    ``find(provider, model_id)`` gives the usable model of that name (None: unknown or no
    credentials); ``fallback`` is called only when something is not pinned nor recorded."""
    model = pinned.model
    missing = None
    if model is None and recorded.model is not None:
        model = find(recorded.model.provider, recorded.model.model_id)
        if model is None:
            missing = f"{recorded.model.provider}/{recorded.model.model_id}"
    level = pinned.thinking_level
    if level is None and not recorded.empty:
        level = thinking_level(recorded.thinking_level)
    if model is not None and level is not None:
        return SessionSettings(model, level), None
    default = fallback()
    chosen = SessionSettings(model or default.model, level or default.thinking_level)
    if missing is None:
        return chosen, None
    used = f"{chosen.model.provider}/{chosen.model.id}"
    return chosen, f"could not restore the session's model {missing} (unknown or no API key); using {used}"


__all__ = ["Pinned", "SessionSettings", "resumed_settings", "thinking_level"]
