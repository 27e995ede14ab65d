"""/reload re-reads the rules but keeps the session's permission mode and remembered answers."""

from __future__ import annotations

import json
from pathlib import Path

from tau_coding.app.session_setup import open_controlled_session
from tau_coding.app.wiring import Options
from tau_coding.session.events import InputHandledEvent
from tests.coding.extensions.helpers import collect
from tests.e2e.scripted_project import MODEL, Project


async def test_reload_keeps_the_mode_and_the_answers_and_reads_new_rules(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", "openai-completions")
    project.configure("http://127.0.0.1:9")  # nothing here may reach the model
    control = open_controlled_session(
        Options(model=MODEL, no_session=True, can_ask=True), project.env(), root, warn=lambda m: None
    )
    first = control.session
    assert first.permissions is not None and first.permissions.mode == "ask"
    first.permissions.set_mode("plan")
    first.permissions.remember(["Bash(make:*)"])
    (project.tau_home / "settings.json").write_text(json.dumps({"permissions": {"deny": ["Bash(rm:*)"]}}))
    try:
        events = await collect(first.prompt("/reload"))
        assert any(isinstance(e, InputHandledEvent) for e in events)
        fresh = control.session.permissions
        assert fresh is not None and fresh is not first.permissions
        assert (fresh.mode, fresh.remembered) == ("plan", ("Bash(make:*)",))
        assert "# Plan mode" in control.session.harness.system_prompt
        assert fresh.decide("bash", {"command": "rm x"}).behavior == "deny"
        assert fresh.decide("bash", {"command": "make all"}).behavior == "allow"
    finally:
        control.session.close()
