"""Render a few of the TUI's golden screens (tests/coding/tui/golden/screens/*.svg) to PNG for docs/.

    .venv/bin/python scripts/render_screens.py [--out docs/images] [NAME ...]

NAME is a golden's name without ``.svg`` (default: the ones the docs show). Each SVG is drawn by
headless Chromium at its own size. The SVGs name a web font; the copy Chromium draws has that
``url(...)`` removed, so nothing is fetched and the local monospace font is used. Regenerate the
goldens first if the look changed (see tests/coding/tui/snapshot_matrix.py).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "coding" / "tui" / "golden" / "screens"
DEFAULT = (
    "conversation-large-dark",
    "settings-medium-dark",
    "session-picker-medium-light",
    "tree-medium-dark",
)
_VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')
_WEB_FONT = re.compile(r',?\s*url\("https?://[^"]*"\)\s*format\("[^"]*"\)')


def offline_svg(svg: str) -> str:
    """The SVG without its web-font URLs (Chromium then uses a local font and opens no connection)."""
    return _WEB_FONT.sub("", svg)


def size_of(svg: str) -> tuple[int, int]:
    match = _VIEWBOX.search(svg)
    if match is None:
        raise ValueError("the SVG has no viewBox")
    return math.ceil(float(match.group(1))), math.ceil(float(match.group(2)))


def render(name: str, out: Path, chromium: str) -> Path:
    svg = offline_svg((GOLDEN / f"{name}.svg").read_text(encoding="utf-8"))
    width, height = size_of(svg)
    target = out / f"{name}.png"
    target.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as work:
        page = Path(work) / f"{name}.svg"
        page.write_text(svg, encoding="utf-8")
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={work}",  # its own profile: a running Chromium must not take the job
                f"--window-size={width},{height}",
                f"--screenshot={target}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    if not target.exists():
        raise RuntimeError(f"chromium wrote no {target}")
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(DEFAULT))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("render_screens: needs chromium (apt-get install chromium)", file=sys.stderr)
        return 2
    missing = [n for n in args.names if not (GOLDEN / f"{n}.svg").exists()]
    if missing:
        print(f"render_screens: no golden named {', '.join(missing)} in {GOLDEN}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        print(render(name, args.out, chromium))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
