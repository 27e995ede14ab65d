"""scripts/render_screens.py: the goldens drawn to PNG by headless Chromium, fetching nothing."""

from __future__ import annotations

import importlib.util
import shutil
import struct
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "render_screens.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("render_screens", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_svg_drawn_names_no_web_font_and_keeps_its_size() -> None:
    render_screens = _script()
    svg = (render_screens.GOLDEN / "conversation-large-dark.svg").read_text()
    assert "https://" in svg
    offline = render_screens.offline_svg(svg)
    assert 'url("http' not in offline and 'local("FiraCode-Regular");' in offline
    assert render_screens.size_of(offline) == (1726, 1075)
    assert all((render_screens.GOLDEN / f"{name}.svg").exists() for name in render_screens.DEFAULT)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs chromium (apt-get install chromium)")
def test_a_golden_becomes_a_png_of_its_size(tmp_path: Path) -> None:
    render_screens = _script()
    assert render_screens.main(["--out", str(tmp_path), "confirm-small-dark"]) == 0
    data = (tmp_path / "confirm-small-dark.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == render_screens.size_of(
        (render_screens.GOLDEN / "confirm-small-dark.svg").read_text()
    )
