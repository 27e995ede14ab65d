"""The theme and keybindings examples still load to exactly their golden outputs (golden/README.md)."""

from __future__ import annotations

import pytest

from .goldens import GOLDEN, OUTPUTS, render


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_golden_output_matches(name: str) -> None:
    assert render(name) == (GOLDEN / name).read_text(encoding="utf-8")
