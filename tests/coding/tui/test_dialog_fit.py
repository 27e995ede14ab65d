"""A dialog's list gives up rows on a small terminal so that the title and hint stay in view
(screens/dialog.py); the tmux side, inline: test_tmux_dialogs.py."""

from __future__ import annotations

from textual.widgets import OptionList, Static

from tau_agent.testing import FakeProvider
from tau_coding.tui.screens.dialog import MIN_LIST_ROWS, list_rows
from tau_coding.tui.screens.list_height import VISIBLE_ROWS
from tau_coding.tui.screens.model_picker import ModelPicker

from .helpers import adapter
from .test_app import make_app


def test_the_list_takes_what_the_other_parts_leave_within_its_bounds() -> None:
    assert list_rows(40, 10) == VISIBLE_ROWS  # room to spare: the list's own height
    assert list_rows(19, 10) == 9
    assert list_rows(12, 10) == MIN_LIST_ROWS  # too small: a few rows still, the dialog clips
    assert list_rows(30, 10, lists=2) == 10


async def test_on_a_short_terminal_the_model_picker_keeps_its_hint_and_grows_back() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=(72, 40)) as pilot:
        await pilot.resize_terminal(72, 16)
        await app.push_screen(ModelPicker([f"p/model-{i}" for i in range(40)], "p/model-0"))
        await pilot.pause(0.2)
        hint = app.screen.query_one(".dialog-hint", Static)
        assert hint.region.y >= 0 and hint.region.bottom <= 16 and hint.region.height == 1
        options = app.screen.query_one(OptionList)
        assert options.region.height < VISIBLE_ROWS
        await pilot.resize_terminal(72, 40)
        await pilot.pause(0.2)
        assert options.region.height == VISIBLE_ROWS
