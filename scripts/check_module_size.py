"""Module-size budget (architecture.md rule 5): warn over 300 lines, fail over 500.

Generated data modules may opt out with a first-line marker: ``# generated: ...``.
"""

from __future__ import annotations

import sys
from pathlib import Path

SOFT, HARD = 300, 500


def main() -> int:
    root = Path(__file__).resolve().parent.parent / "src"
    failed = False
    for path in sorted(root.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if lines and lines[0].startswith("# generated:"):
            continue
        rel = path.relative_to(root.parent)
        if len(lines) > HARD:
            print(f"{rel}: {len(lines)} lines, over the hard budget of {HARD}")
            failed = True
        elif len(lines) > SOFT:
            print(f"{rel}: {len(lines)} lines (soft budget {SOFT})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
