"""The trust store's file: atomic, in the documented shape, and forgiving of damage."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from tau_coding.extensions.trust import TrustStore


def test_trust_is_written_in_the_documented_shape_and_covers_subdirectories(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / "sub").mkdir(parents=True)
    store = TrustStore(tmp_path / "tau_home")
    assert not store.is_trusted(project)
    store.trust(project, now=datetime(2026, 11, 30, 11, 0, tzinfo=UTC))
    store.trust(project, now=datetime(2026, 11, 30, 11, 0, tzinfo=UTC))  # idempotent
    assert json.loads(store.path.read_text()) == {
        "version": 1,
        "projects": {str(project.resolve()): {"trustedAt": "2026-11-30T11:00:00Z"}},
    }
    assert store.is_trusted(project / "sub") and not store.is_trusted(tmp_path)
    assert [p.name for p in store.path.parent.iterdir()] == ["trusted-projects.json"]  # no temp file left


def test_a_damaged_trust_file_trusts_nothing_and_says_why(tmp_path: Path) -> None:
    store = TrustStore(tmp_path)
    store.path.write_text("{not json")
    assert (
        not store.is_trusted(tmp_path)
        and store.problem is not None
        and "trusting no project" in store.problem
    )
    store.trust(tmp_path)
    assert store.is_trusted(tmp_path)
