from __future__ import annotations

import json
from pathlib import Path

from tau_coding.config.settings_update import update_settings


def test_changes_are_merged_over_the_file_keeping_every_other_key(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"theme": "dark", "unknownKey": [1, 2], "retry": {"enabled": False}}))
    assert update_settings(path, {"theme": "light", "defaultModel": "m"}) is None
    assert json.loads(path.read_text()) == {
        "theme": "light",
        "unknownKey": [1, 2],
        "retry": {"enabled": False},
        "defaultModel": "m",
    }


def test_a_missing_file_and_folder_are_created(tmp_path: Path) -> None:
    path = tmp_path / "home" / ".tau" / "settings.json"
    assert update_settings(path, {"theme": "light"}) is None
    assert json.loads(path.read_text()) == {"theme": "light"}


def test_a_malformed_file_is_left_alone_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "dark",')
    problem = update_settings(path, {"theme": "light"})
    assert problem is not None and "invalid JSON" in problem and "\n" not in problem
    assert path.read_text() == '{"theme": "dark",'
    path.write_text("[1]")
    assert "not a JSON object" in (update_settings(path, {"theme": "light"}) or "")
    assert path.read_text() == "[1]"


def test_a_dotted_key_sets_that_key_inside_its_object_and_keeps_its_siblings(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"compaction": {"reserveTokens": 9}, "images": "not an object"}))
    assert update_settings(path, {"compaction.enabled": False, "images.autoResize": True}) is None
    assert json.loads(path.read_text()) == {
        "compaction": {"reserveTokens": 9, "enabled": False},
        "images": {"autoResize": True},
    }
    before = path.stat().st_mtime_ns
    assert update_settings(path, {"compaction.enabled": False}) is None  # unchanged: not rewritten
    assert path.stat().st_mtime_ns == before
