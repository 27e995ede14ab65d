"""Whether a session takes checkpoints: on by default, off by flag or setting; the size limit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tau_coding.app.checkpoint_setup import prune_daily, retention_days, session_checkpoints
from tau_coding.checkpoints.store import DEFAULT_MAX_FILE_BYTES, CheckpointStore
from tau_coding.config.paths import TauPaths


def _paths(tmp_path: Path) -> TauPaths:
    return TauPaths(home=tmp_path, tau_home=tmp_path / ".tau", cwd=tmp_path)


def _get(values: dict[str, Any]) -> Any:
    return lambda key: values.get(key)


def test_checkpoints_are_on_by_default_and_kept_under_tau_home(tmp_path: Path) -> None:
    checkpoints = session_checkpoints(_paths(tmp_path), _get({}))
    assert checkpoints is not None
    assert checkpoints.store.max_file_bytes == DEFAULT_MAX_FILE_BYTES
    assert checkpoints.store.git_dir.parent == tmp_path / ".tau" / "checkpoints"


def test_the_flag_or_the_setting_turns_them_off(tmp_path: Path) -> None:
    assert session_checkpoints(_paths(tmp_path), _get({}), disabled=True) is None
    assert session_checkpoints(_paths(tmp_path), _get({"checkpoints.enabled": False})) is None


def test_max_file_bytes_is_read_and_a_bad_value_keeps_the_default(tmp_path: Path) -> None:
    small = session_checkpoints(_paths(tmp_path), _get({"checkpoints.maxFileBytes": 1024}))
    assert small is not None and small.store.max_file_bytes == 1024
    bad = session_checkpoints(_paths(tmp_path), _get({"checkpoints.maxFileBytes": -5}))
    assert bad is not None and bad.store.max_file_bytes == DEFAULT_MAX_FILE_BYTES


def test_retention_days_falls_back_to_thirty() -> None:
    assert retention_days(7) == 7.0
    assert retention_days(None) == retention_days(0) == retention_days(True) == 30.0


def test_a_session_start_prunes_at_most_once_a_day(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    assert prune_daily(paths, None) is None  # no store yet: nothing to prune
    project = tmp_path / "gone"
    project.mkdir()
    store = CheckpointStore(project, paths.checkpoints_dir)
    store.take()
    thread = prune_daily(paths, 30)
    assert thread is not None
    thread.join(30)
    assert (paths.checkpoints_dir / ".last-gc").exists()
    assert prune_daily(paths, 30) is None  # stamped: not again today
    assert store.git_dir.exists()  # within the grace hour: kept
