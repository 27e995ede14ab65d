"""Retention: old checkpoints and those no session refers to are pruned; the rest stay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tau_coding.checkpoints.retention import collect, prune_store, referenced_ids
from tau_coding.checkpoints.store import CheckpointStore


def _session_file(path: Path, *ids: str) -> Path:
    lines = [{"type": "session", "id": "s"}]
    lines += [{"type": "custom", "customType": "tau.checkpoint", "data": {"id": i}} for i in ids]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_referenced_ids_are_read_from_session_files(tmp_path: Path) -> None:
    one = _session_file(tmp_path / "a.jsonl", "abc", "def")
    two = tmp_path / "b.jsonl"
    two.write_text(
        '{"type":"custom","customType":"tau.checkpoint","data":{"id":"ghi"}}\nnot json "tau.checkpoint"\n'
    )
    assert referenced_ids([one, two, tmp_path / "missing.jsonl"]) == {"abc", "def", "ghi"}


def test_old_and_unreferenced_checkpoints_are_pruned(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "a.txt").write_text("1\n")
    store = CheckpointStore(project, tmp_path / "checkpoints")
    kept_by_file = store.take(session=str(_session_file(tmp_path / "live.jsonl")))
    referenced = store.take(session="/gone.jsonl")
    orphan = store.take(session="/gone.jsonl")
    later = time.time() + 2 * 3600  # past the one-hour grace
    kept, pruned = prune_store(store.git_dir, keep={referenced.id}, retention_days=30, now=later)
    assert (kept, pruned) == (2, 1)
    assert store.changes_since([orphan.id]) == {}
    assert set(store.changes_since([kept_by_file.id, referenced.id])) == {kept_by_file.id, referenced.id}
    far = time.time() + 40 * 86400
    assert prune_store(store.git_dir, keep={referenced.id}, retention_days=30, now=far) == (0, 2)


def test_a_store_whose_project_is_gone_is_removed(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    store = CheckpointStore(project, tmp_path / "checkpoints")
    store.take(session="/gone.jsonl")
    project.rmdir()
    assert collect(tmp_path / "checkpoints", keep=set()).kept == 1  # the grace hour keeps it
    report = collect(tmp_path / "checkpoints", keep=set(), now=time.time() + 7200)
    assert (report.stores, report.pruned, report.stores_removed) == (1, 1, 1)
    assert not store.git_dir.exists()


def test_tau_checkpoints_gc_runs_from_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "TAU_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "tau_coding", "checkpoints", "gc"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("checkpoints: kept 0, pruned 0")
