"""``permissions`` in settings.json: the user's and a trusted project's lists add up; an
untrusted project's are ignored with one warning; a bad rule or mode is one warning."""

from __future__ import annotations

import json
from pathlib import Path

from tau_coding.app.permission_setup import permission_gate
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import load_settings


def _files(tmp_path: Path, user: dict[str, object], project: dict[str, object]) -> tuple[Path, Path]:
    user_file, project_file = tmp_path / "user.json", tmp_path / "project.json"
    user_file.write_text(json.dumps(user))
    project_file.write_text(json.dumps(project))
    return user_file, project_file


def test_trusted_project_rules_add_to_the_users(tmp_path: Path) -> None:
    user = {"permissions": {"allow": ["Bash(git diff:*)"], "deny": ["Bash(rm:*)"], "defaultMode": "ask"}}
    project = {"permissions": {"allow": ["Edit(src/**)"], "defaultMode": "accept-edits"}}
    settings, problems = load_settings(*_files(tmp_path, user, project), project_trusted=True)
    assert problems == []
    assert settings.get("permissions") == {
        "allow": ["Bash(git diff:*)", "Edit(src/**)"],
        "deny": ["Bash(rm:*)"],
        "defaultMode": "accept-edits",
    }


def test_an_untrusted_project_cannot_set_permissions(tmp_path: Path) -> None:
    user = {"permissions": {"deny": ["Bash(rm:*)"]}}
    project = {"permissions": {"allow": ["Bash"], "defaultMode": "yolo"}}
    settings, problems = load_settings(*_files(tmp_path, user, project))
    assert settings.get("permissions") == {"deny": ["Bash(rm:*)"]}
    assert [p.message for p in problems] == [
        "permissions ignored: the project is not trusted; run `tau --trust-project` in it once to trust it"
    ]


def test_the_gate_takes_flag_over_setting_over_frontend_and_warns_about_bad_entries(tmp_path: Path) -> None:
    paths = TauPaths(home=tmp_path, tau_home=tmp_path / ".tau", cwd=tmp_path)
    user = {"permissions": {"allow": ["Bash(", "Edit"], "defaultMode": "sometimes"}}
    settings, _ = load_settings(*_files(tmp_path, user, {}))
    warnings: list[str] = []
    assert permission_gate(None, True, settings, paths, warnings.append).mode == "ask"
    assert permission_gate(None, False, settings, paths, warnings.append).mode == "workspace"
    assert permission_gate("acceptEdits", False, settings, paths, warnings.append).mode == "accept-edits"
    assert warnings[:2] == [
        "permissions.allow: 'Bash(' is not a rule (Tool or Tool(specifier))",
        "permissions.defaultMode: unknown mode 'sometimes'; known modes: ask, accept-edits, plan, yolo, "
        "workspace, default, acceptEdits, accept_edits, bypass, bypassPermissions, dontAsk",
    ]
    configured, _ = load_settings(*_files(tmp_path, {"permissions": {"defaultMode": "bypass"}}, {}))
    assert permission_gate(None, False, configured, paths, warnings.append).mode == "yolo"
