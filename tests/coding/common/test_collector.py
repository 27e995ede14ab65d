"""settled_heap: start-up's objects frozen, a wide young generation while a mode runs, thresholds restored."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from tau_coding.common.collector import YOUNG, settled_heap


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # CPython's defaults, whatever the run set before
    yield gc.get_threshold()
    gc.set_threshold(*before)


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_the_young_generation_is_widened_inside_and_restored_after(thresholds: tuple[int, int, int]) -> None:
    with settled_heap():
        assert gc.get_threshold() == (YOUNG, 10, 10)
    assert gc.get_threshold() == thresholds


def test_thresholds_are_restored_when_the_block_raises(thresholds: tuple[int, int, int]) -> None:
    with pytest.raises(RuntimeError), settled_heap():
        raise RuntimeError("the run failed")
    assert gc.get_threshold() == thresholds


def test_a_wider_young_generation_set_before_is_kept(thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(YOUNG * 2, 5, 5)
    with settled_heap():
        assert gc.get_threshold() == (YOUNG * 2, 5, 5)
    assert gc.get_threshold() == (YOUNG * 2, 5, 5)


def test_objects_alive_before_are_frozen_and_later_cycles_still_collected(
    thresholds: tuple[int, int, int],
) -> None:
    old = _Node()
    old_ref = weakref.ref(old)
    try:
        with settled_heap():
            young = _Node()
            young_ref = weakref.ref(young)
            del old, young
            gc.collect()
            assert young_ref() is None  # made during the run: collected as before
            assert old_ref() is not None  # alive at the freeze: no pass visits it
    finally:
        gc.unfreeze()  # this test process is not a tau run: give its objects back to the collector
    gc.collect()
    assert old_ref() is None
