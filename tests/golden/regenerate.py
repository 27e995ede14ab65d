"""Rewrite every golden file from the current code: ``python -m tests.golden.regenerate``.

Review the diff before committing: a changed golden is a changed wire behaviour.
"""

from __future__ import annotations

import shutil
import sys

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


def main() -> int:
    for folder in ("events", "errors", "requests"):
        shutil.rmtree(GOLDEN / folder, ignore_errors=True)
    count = 0
    for recording in stream_recordings():
        path = events_path(recording)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump_events(replay(recording)), encoding="utf-8")
        count += 1
    for api, cases in error_goldens().items():
        path = errors_path(api)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump_json(cases), encoding="utf-8")
        count += 1
    for api, builders in request_cases().items():
        for case, build in builders.items():
            path = GOLDEN / "requests" / api / f"{case}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dump_json(request_to_dict(build())), encoding="utf-8")
            count += 1
    print(f"wrote {count} golden files under {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
