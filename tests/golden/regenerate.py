"""Rewrite golden files from the current code: ``python -m tests.golden.regenerate [area ...]``.

Review the diff like code: a changed golden is a changed wire behaviour.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable

from tests.golden import wire_cases
from tests.golden.goldens import (
    GOLDEN,
    dump_events,
    dump_json,
    error_goldens,
    errors_path,
    events_path,
    replay,
    request_to_dict,
    stream_recordings,
)
from tests.golden.requests import request_cases


def regenerate_apis() -> None:
    """Provider goldens: events of every recorded stream, error messages, built requests."""
    for folder in ("events", "errors", "requests"):
        shutil.rmtree(GOLDEN / folder, ignore_errors=True)
    for recording in stream_recordings():
        path = events_path(recording)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump_events(replay(recording)), encoding="utf-8")
    for api, cases in error_goldens().items():
        path = errors_path(api)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump_json(cases), encoding="utf-8")
    for api, builders in request_cases().items():
        for case, build in builders.items():
            path = GOLDEN / "requests" / api / f"{case}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dump_json(request_to_dict(build())), encoding="utf-8")


AREAS: dict[str, Callable[[], None]] = {"wire": wire_cases.regenerate, "apis": regenerate_apis}


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
