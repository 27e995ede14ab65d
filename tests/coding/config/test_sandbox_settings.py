"""sandbox.* in settings.json: typed, and an untrusted project may strengthen but never weaken it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tau_coding.config.settings import load_settings


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


USER = {"sandbox": {"enabled": True, "network": False, "required": True, "writablePaths": ["~/cache"]}}
WEAKER = {"sandbox": {"enabled": False, "network": True, "required": False, "writablePaths": ["/"]}}


def test_sandbox_settings_are_read(tmp_path: Path) -> None:
    settings, diagnostics = load_settings(_write(tmp_path / "u.json", USER), tmp_path / "none.json")
    assert diagnostics == []
    assert settings.get("sandbox.enabled") is True and settings.get("sandbox.required") is True
    assert settings.get("sandbox.writablePaths") == ["~/cache"]


def test_a_wrong_type_is_one_diagnostic(tmp_path: Path) -> None:
    user = _write(tmp_path / "u.json", {"sandbox": {"network": "yes"}, "theme": "dark"})
    settings, diagnostics = load_settings(user, tmp_path / "none.json")
    assert len(diagnostics) == 1 and "sandbox" in diagnostics[0].message
    assert settings.get("sandbox.network") is None and settings.get("theme") == "dark"


def test_an_untrusted_project_cannot_weaken_the_sandbox(tmp_path: Path) -> None:
    user = _write(tmp_path / "u.json", USER)
    project = _write(tmp_path / "p/.tau/settings.json", WEAKER)
    settings, diagnostics = load_settings(user, project)
    assert settings.get("sandbox") == USER["sandbox"]
    (only,) = diagnostics
    assert (
        "sandbox.enabled, sandbox.network, sandbox.required, sandbox.writablePaths ignored: the project is not trusted"
        in only.message
    )


def test_an_untrusted_project_may_turn_it_on_and_close_the_network(tmp_path: Path) -> None:
    user = _write(tmp_path / "u.json", {"sandbox": {"network": True}})
    project = _write(
        tmp_path / "p/.tau/settings.json", {"sandbox": {"enabled": True, "network": False, "required": True}}
    )
    settings, diagnostics = load_settings(user, project)
    assert diagnostics == []
    assert settings.get("sandbox") == {"enabled": True, "network": False, "required": True}


def test_a_trusted_project_may_weaken_it(tmp_path: Path) -> None:
    user = _write(tmp_path / "u.json", USER)
    project = _write(tmp_path / "p/.tau/settings.json", WEAKER)
    settings, diagnostics = load_settings(user, project, project_trusted=True)
    assert diagnostics == [] and settings.get("sandbox") == WEAKER["sandbox"]
