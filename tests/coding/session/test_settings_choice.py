"""resumed_settings: the command line wins, then the session's record, then the fallback."""

from __future__ import annotations

import pytest

from tau_agent.session.state import ModelRef, PathSettings
from tau_ai.model import Model
from tau_coding.session.settings_choice import Pinned, SessionSettings, resumed_settings

A = Model("a", "fake", "fake", "http://127.0.0.1")
B = Model("b", "fake", "fake", "http://127.0.0.1")
DEFAULT = SessionSettings(A, "low")


def _find(provider: str, model_id: str) -> Model | None:
    return {("fake", "a"): A, ("fake", "b"): B}.get((provider, model_id))


def _no_fallback() -> SessionSettings:
    raise AssertionError("the fallback is not needed here")


def test_a_session_continues_with_what_its_path_records() -> None:
    recorded = PathSettings(ModelRef("fake", "b"), "high", empty=False)
    chosen, warning = resumed_settings(recorded, pinned=Pinned(), find=_find, fallback=_no_fallback)
    assert (chosen, warning) == (SessionSettings(B, "high"), None)


def test_no_thinking_entry_on_a_path_means_off_not_the_default() -> None:
    recorded = PathSettings(ModelRef("fake", "b"), empty=False)
    chosen, _ = resumed_settings(recorded, pinned=Pinned(), find=_find, fallback=lambda: DEFAULT)
    assert chosen == SessionSettings(B, "off")


def test_the_command_line_wins_over_the_record() -> None:
    recorded = PathSettings(ModelRef("fake", "b"), "high", empty=False)
    chosen, _ = resumed_settings(recorded, pinned=Pinned(A), find=_find, fallback=_no_fallback)
    assert chosen == SessionSettings(A, "high")
    chosen, _ = resumed_settings(recorded, pinned=Pinned(None, "minimal"), find=_find, fallback=_no_fallback)
    assert chosen == SessionSettings(B, "minimal")


def test_an_empty_path_gets_the_fallback() -> None:
    chosen, warning = resumed_settings(PathSettings(), pinned=Pinned(), find=_find, fallback=lambda: DEFAULT)
    assert (chosen, warning) == (DEFAULT, None)


@pytest.mark.parametrize("level", ["", "turbo"])
def test_an_unknown_recorded_level_falls_back(level: str) -> None:
    recorded = PathSettings(ModelRef("fake", "a"), level, empty=False)
    chosen, _ = resumed_settings(recorded, pinned=Pinned(), find=_find, fallback=lambda: DEFAULT)
    assert chosen == SessionSettings(A, "low")


def test_a_model_that_cannot_be_used_is_named_in_one_line() -> None:
    recorded = PathSettings(ModelRef("gone", "x"), "high", empty=False)
    chosen, warning = resumed_settings(recorded, pinned=Pinned(), find=_find, fallback=lambda: DEFAULT)
    assert chosen == SessionSettings(A, "high")
    assert warning == "could not restore the session's model gone/x (unknown or no API key); using fake/a"
