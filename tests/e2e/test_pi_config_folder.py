"""A Pi 0.73 config folder copied into Tau's home works with no warning."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

PI = Path(__file__).resolve().parents[1] / "data" / "pi"


async def test_a_pi_config_folder_loads_without_a_word(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", "openai-completions")
    async with server(project.api, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        home = project.tau_home
        settings = json.loads((PI / "settings.json").read_text())
        # Pi's own extensions and packages are TypeScript and npm: a real user's list names
        # files Tau cannot run, which it rightly reports; everything else is as Pi wrote it.
        del settings["extensions"], settings["packages"]
        settings |= {"skills": ["~/pi-skills"], "prompts": ["~/pi-prompts"], "themes": ["~/pi-themes"]}
        (home / "settings.json").write_text(json.dumps(settings))
        models = json.loads((home / "models.json").read_text())
        models["providers"]["scripted"]["headers"] = {"X-Team": "!echo blue"}
        (home / "models.json").write_text(json.dumps(models))
        shutil.copy(PI / "keybindings.json", home / "keybindings.json")
        (home / "themes").mkdir()
        shutil.copy(PI / "theme-harbour-night.json", home / "themes" / "harbour.json")
        skill = project.home / "pi-skills" / "deploy" / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text("---\nname: deploy\ndescription: Ship it.\n---\nRun make ship.\n")
        (project.home / "pi-prompts").mkdir()
        (project.home / "pi-prompts" / "review.md").write_text("Review $1.\n")
        (project.home / "pi-themes").mkdir()
        result = await project.tau("-p", "--model", MODEL, "/review a.py")
        assert result.code == 0, result.stderr
        assert result.stderr == ""
        body = srv.requests[0].json()
        assert srv.requests[0].headers["x-team"] == "blue"
        assert "Review a.py." in json.dumps(body["messages"][-1])
        assert "Ship it." in json.dumps(body["messages"][0])
    assert list((project.home / "pi-sessions").glob("*.jsonl"))  # sessionDir: "~/pi-sessions"
