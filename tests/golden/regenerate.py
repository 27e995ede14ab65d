"""Rewrite golden files from the current code: ``python -m tests.golden.regenerate [area ...]``.

Review the diff like code: a golden change is a wire-format change.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from tests.golden import wire_cases

AREAS: dict[str, Callable[[], None]] = {"wire": wire_cases.regenerate}


def main(argv: list[str]) -> int:
    chosen = argv or sorted(AREAS)
    unknown = [a for a in chosen if a not in AREAS]
    if unknown:
        print(f"unknown area(s): {', '.join(unknown)}; known: {', '.join(sorted(AREAS))}", file=sys.stderr)
        return 2
    for area in chosen:
        AREAS[area]()
        print(f"regenerated {area}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
