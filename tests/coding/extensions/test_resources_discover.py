"""resources_discover: an extension adds skills and prompt templates, asked each time a session is built."""

from __future__ import annotations

from pathlib import Path

from tau_coding.app.session_setup import open_controlled_session
from tau_coding.app.wiring import Options
from tests.coding.extensions.helpers import collect, write_extension
from tests.e2e.scripted_project import MODEL, Project


async def test_an_extension_adds_skills_and_prompts_and_is_asked_again_on_reload(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", "openai-completions")
    project.configure("http://127.0.0.1:9")  # nothing here may reach the model
    shared = tmp_path / "shared"
    (shared / "skills" / "team-style").mkdir(parents=True)
    (shared / "skills" / "team-style" / "SKILL.md").write_text(
        "---\nname: team-style\ndescription: How the team writes code.\n---\nUse tabs.\n"
    )
    (shared / "prompts").mkdir()
    (shared / "prompts" / "standup.md").write_text("Summarise what changed since $1.\n")
    extension = write_extension(
        tmp_path / "ext",
        "team",
        f"""
        from tau_coding.extensions import ResourcePaths
        asked = []
        def activate(tau):
            def discover(event):
                asked.append(event.cwd)
                return ResourcePaths(skill_paths=[{str(shared / "skills")!r}], prompt_paths=[{str(shared / "prompts")!r}])
            tau.on("resources_discover", discover)
        """,
    )
    control = open_controlled_session(
        Options(model=MODEL, no_session=True, extensions=[str(extension)]),
        project.env(),
        root,
        warn=lambda m: None,
    )
    try:
        resources = control.session.resources
        assert resources is not None
        assert "team-style" in [s.name for s in resources.skills]
        assert control.session.expand("/standup Monday") == "Summarise what changed since Monday."
        (shared / "prompts" / "retro.md").write_text("What went well?\n")
        await collect(control.session.prompt("/reload"))
        fresh = control.session.resources
        assert fresh is not None and "retro" in [t.name for t in fresh.prompt_templates]
    finally:
        control.session.close()
