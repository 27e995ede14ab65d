"""A package's skills, prompt templates and themes reach the session, and /reload reads them again."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tau_coding.app.cli_dispatch import _package_themes
from tau_coding.app.session_setup import open_controlled_session
from tau_coding.app.wiring import Options
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import load_settings
from tau_coding.packages.cli import main
from tests.coding.extensions.helpers import collect
from tests.e2e.scripted_project import MODEL, Project

SKILL = "---\nname: {name}\ndescription: Says {name}.\n---\nSay {name}.\n"


def _package(root: Path) -> Path:
    (root / "skills" / "packaged-hello").mkdir(parents=True)
    (root / "skills" / "packaged-hello" / "SKILL.md").write_text(SKILL.format(name="packaged-hello"))
    (root / "prompts").mkdir()
    (root / "prompts" / "greet.md").write_text("Greet $1 warmly.\n")
    (root / "themes").mkdir()
    (root / "themes" / "sunset.json").write_text(json.dumps({"name": "sunset", "colors": {}}))
    return root


async def test_a_packages_skills_prompts_and_themes_are_loaded_and_reloaded(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", "openai-completions")
    project.configure("http://127.0.0.1:9")  # nothing here may reach the model
    package = _package(tmp_path / "pkg")
    environ = project.env()
    code = main(["install", str(package)], environ=environ, cwd=root, out=io.StringIO(), err=io.StringIO())
    assert code == 0
    control = open_controlled_session(
        Options(model=MODEL, no_session=True), environ, root, warn=lambda m: None
    )
    try:
        resources = control.session.resources
        assert resources is not None
        assert "packaged-hello" in [s.name for s in resources.skills]
        assert "greet" in [t.name for t in resources.prompt_templates]
        assert control.session.expand("/greet Ada") == "Greet Ada warmly."
        (package / "prompts" / "farewell.md").write_text("Say goodbye to $1.\n")
        await collect(control.session.prompt("/reload"))
        fresh = control.session.resources
        assert fresh is not None and "farewell" in [t.name for t in fresh.prompt_templates]
    finally:
        control.session.close()
    paths = TauPaths.from_env(environ, root)
    settings = load_settings(paths.user_settings, paths.project_settings, project_trusted=False)[0]
    assert _package_themes(settings, paths, trusted=False) == [
        str((package / "themes" / "sunset.json").resolve())
    ]


async def test_a_filter_keeps_a_packages_prompts_out(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", "openai-completions")
    project.configure("http://127.0.0.1:9")
    package = _package(tmp_path / "pkg")
    environ = project.env()
    assert (
        main(["install", str(package)], environ=environ, cwd=root, out=io.StringIO(), err=io.StringIO()) == 0
    )
    settings_file = project.tau_home / "settings.json"
    data = json.loads(settings_file.read_text())
    data["packages"] = [{"source": data["packages"][0], "prompts": []}]
    settings_file.write_text(json.dumps(data))
    control = open_controlled_session(
        Options(model=MODEL, no_session=True), environ, root, warn=lambda m: None
    )
    try:
        resources = control.session.resources
        assert resources is not None
        assert "greet" not in [t.name for t in resources.prompt_templates]
        assert "packaged-hello" in [s.name for s in resources.skills]
    finally:
        control.session.close()
