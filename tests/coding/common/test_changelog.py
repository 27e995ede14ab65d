"""The packaged changelog and the one-line notice after an update."""

from __future__ import annotations

import json
from pathlib import Path

from tau_coding import __version__
from tau_coding.common.changelog import changelog_text, update_notice, version_key
from tau_coding.modes.interactive.changelog_notice import changelog_notice


def test_the_installed_tau_finds_a_changelog_that_names_its_version() -> None:
    text = changelog_text()
    assert text is not None and f"## {__version__}" in text


def test_the_first_readable_place_wins_and_none_is_none(tmp_path: Path) -> None:
    packaged, repo = tmp_path / "a.md", tmp_path / "b.md"
    repo.write_text("repo copy")
    assert changelog_text((packaged, repo)) == "repo copy"
    packaged.write_text("packaged copy")
    assert changelog_text((packaged, repo)) == "packaged copy"
    assert changelog_text((tmp_path / "missing.md",)) is None


def test_versions_compare_as_numbers() -> None:
    assert version_key("0.10.0") > version_key("0.9.1")
    assert version_key("v1.2.3rc1") == (1, 2, 3)
    assert version_key("not a version") == ()


def test_the_notice_names_the_new_version_only_after_an_update() -> None:
    line = update_notice("0.1.0", "0.2.0")
    assert line is not None and "0.2.0" in line and "/changelog" in line and "\n" not in line
    assert update_notice("0.2.0", "0.2.0") is None
    assert update_notice("0.3.0", "0.2.0") is None  # a downgrade says nothing
    assert update_notice(None, "0.2.0") is None  # a first start ever
    assert update_notice(7, "0.2.0") is None


def test_the_seen_version_is_remembered_and_other_settings_kept(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"theme": "light", "lastChangelogVersion": "0.0.1"}))
    assert changelog_notice(settings, "0.1.0") is not None
    assert json.loads(settings.read_text()) == {"theme": "light", "lastChangelogVersion": "0.1.0"}
    assert changelog_notice(settings, "0.1.0") is None  # once only


def test_a_first_start_records_the_version_silently(tmp_path: Path) -> None:
    settings = tmp_path / "home" / "settings.json"
    assert changelog_notice(settings, "0.1.0") is None
    assert json.loads(settings.read_text()) == {"lastChangelogVersion": "0.1.0"}


def test_a_broken_settings_file_costs_the_notice_not_the_file(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text("{not json")
    assert changelog_notice(settings, "0.1.0") is None
    assert settings.read_text() == "{not json"
