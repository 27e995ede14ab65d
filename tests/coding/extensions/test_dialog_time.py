"""Time a person spends answering an extension's dialog does not count against its time limit."""

from __future__ import annotations

import asyncio

import pytest

from tau_coding.extensions.guard import Guard, HandlerFailure
from tau_coding.extensions.ui import DialogClock


async def test_a_slow_answer_in_a_dialog_does_not_time_the_handler_out() -> None:
    clock = DialogClock()
    guard = Guard("gate", 0.2, lambda failure: None, clock)

    async def handler() -> str:
        with clock:  # what LateBoundUI does around every dialog
            await asyncio.sleep(0.5)  # the person thinks for longer than the limit
        return "allowed"

    assert await guard.call("tool_call handler", handler) == "allowed"


async def test_a_handler_that_hangs_without_a_dialog_still_times_out() -> None:
    guard = Guard("stuck", 0.2, lambda failure: None, DialogClock())

    async def handler() -> None:
        await asyncio.sleep(5)

    with pytest.raises(HandlerFailure, match=r"timed out after 0\.2s"):
        await guard.call("tool_call handler", handler)
