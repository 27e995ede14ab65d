"""Every screen and dialog in three terminal sizes and two themes, against SVG goldens
(``snapshot_matrix.py`` says how each is opened and how to regenerate them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .snapshot_matrix import GOLDEN, REGENERATE, SCREENS, SIZES, THEMES, golden_path, render, utc


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", list(SCREENS))
async def test_screen_matches_its_goldens(name: str, theme: str, tmp_path: Path) -> None:
    with utc():
        pictures = await render(name, theme, tmp_path)
    assert list(pictures) == list(SIZES)
    changed = []
    for size, svg in pictures.items():
        path = golden_path(name, size, theme)
        if REGENERATE:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != svg:
            changed.append(path.name)
            path.with_suffix(".actual.svg").write_text(svg, encoding="utf-8")
    assert not changed, (
        f"{changed} differ from the goldens; the new pictures are beside them as *.actual.svg. "
        "If the change is intended: TAU_REGENERATE_GOLDENS=1 pytest tests/coding/tui/test_snapshot_matrix.py"
    )


def test_every_golden_belongs_to_a_screen() -> None:
    expected = {golden_path(n, s, t).name for n in SCREENS for s in SIZES for t in THEMES}
    assert {p.name for p in GOLDEN.glob("*.svg") if not p.name.endswith(".actual.svg")} == expected
