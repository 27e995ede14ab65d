"""Requests each API builds for the fixed contexts of tests/golden/requests.py match their goldens."""

from __future__ import annotations

import json

import pytest

from tests.golden.goldens import GOLDEN, request_to_dict
from tests.golden.requests import Builder, request_cases

CASES = [(api, case, build) for api, cases in request_cases().items() for case, build in cases.items()]


@pytest.mark.parametrize(("api", "case", "build"), CASES, ids=[f"{a}/{c}" for a, c, _ in CASES])
def test_request_matches_golden(api: str, case: str, build: Builder) -> None:
    path = GOLDEN / "requests" / api / f"{case}.json"
    assert path.exists(), f"no golden for {api}/{case}; run python -m tests.golden.regenerate"
    built = json.loads(json.dumps(request_to_dict(build())))
    assert built == json.loads(path.read_text(encoding="utf-8"))


def test_every_request_golden_belongs_to_a_case() -> None:
    expected = {GOLDEN / "requests" / api / f"{case}.json" for api, case, _ in CASES}
    assert set((GOLDEN / "requests").rglob("*.json")) == expected
