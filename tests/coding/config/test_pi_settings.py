"""A Pi 0.73 settings.json, every key in it, loads in Tau without a word."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tau_coding.config.settings import load_settings

PI_SETTINGS = Path(__file__).resolve().parents[2] / "data" / "pi" / "settings.json"


def test_every_pi_key_loads_without_a_warning(tmp_path: Path) -> None:
    user = tmp_path / "settings.json"
    shutil.copy(PI_SETTINGS, user)
    settings, diagnostics = load_settings(user, tmp_path / "none.json", project_trusted=False)
    assert [str(d) for d in diagnostics] == []
    expected = json.loads(PI_SETTINGS.read_text())
    for key in expected:
        assert settings.get(key) is not None, key
    assert settings.get("retry.provider.maxRetryDelayMs") == 60000
    assert settings.get("sessionDir") == "~/pi-sessions"


def test_an_untrusted_project_cannot_choose_where_sessions_go(tmp_path: Path) -> None:
    project = tmp_path / "project.json"
    project.write_text(json.dumps({"sessionDir": "/tmp/elsewhere"}))
    settings, diagnostics = load_settings(tmp_path / "none.json", project, project_trusted=False)
    assert settings.get("sessionDir") is None
    assert any("sessionDir" in str(d) for d in diagnostics)
