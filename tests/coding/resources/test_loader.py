"""load_resources: one call gathers everything from TAU_HOME, home and a real project tree."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tau_coding.resources.loader import load_resources

from .prompt_cases import DEFAULT_TOOLS


def write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)


def skill_text(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nSteps for {name}.\n"


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    home, repo = tmp_path / "home", tmp_path / "home" / "repo"
    tau_home, cwd = home / ".tau", repo / "app"
    (repo / ".git").mkdir(parents=True)
    cwd.mkdir()
    write(tau_home / "AGENTS.md", "Global rule.\n")
    write(repo / "CLAUDE.md", "Repo rule.\n")
    write(cwd / "AGENTS.md", "App rule.\n")
    write(tau_home / "APPEND_SYSTEM.md", "Appended by the user.\n")
    write(tau_home / "skills" / "deploy" / "SKILL.md", skill_text("deploy", "User deploy."))
    write(repo / ".agents" / "skills" / "deploy" / "SKILL.md", skill_text("deploy", "Project deploy."))
    write(home / ".agents" / "skills" / "broken" / "SKILL.md", "---\nname: broken\n---\n")
    write(tau_home / "prompts" / "review.md", "Review $1 carefully.\n")
    write(cwd / ".tau" / "prompts" / "ship.md", "---\ndescription: Ship it\n---\nShip ${@:1}.\n")
    return {"home": home, "tau_home": tau_home, "repo": repo, "cwd": cwd}


def test_everything_is_loaded_with_project_precedence(tree: dict[str, Path]) -> None:
    resources = load_resources(tree["cwd"], tree["tau_home"], tree["home"])
    texts = [f.text for f in resources.context_files if f.path.is_relative_to(tree["home"])]
    assert texts == ["Global rule.\n", "Repo rule.\n", "App rule.\n"]
    assert resources.system_prompt_override is None
    assert resources.append_system_prompt == ("Appended by the user.\n",)
    assert [(s.name, s.description) for s in resources.skills] == [("deploy", "Project deploy.")]
    assert [t.name for t in resources.prompt_templates] == ["init", "review", "ship"]  # init: Tau's own
    assert [(d.severity, Path(d.source).parent.name) for d in resources.diagnostics] == [
        ("warning", "deploy"),  # the user's deploy loses to the project's
        ("error", "broken"),  # no description
    ]


def test_system_prompt_combines_the_resources(tree: dict[str, Path]) -> None:
    resources = load_resources(tree["cwd"], tree["tau_home"], tree["home"])
    prompt = resources.system_prompt(DEFAULT_TOOLS, date(2026, 1, 2))
    for fragment in ("Appended by the user.", "Global rule.", "Repo rule.", "App rule.", "Project deploy."):
        assert fragment in prompt
    assert prompt.endswith(f"Current date: 2026-01-02\nCurrent working directory: {tree['cwd'].resolve()}")


def test_input_expansion_tries_skills_then_templates(tree: dict[str, Path]) -> None:
    resources = load_resources(tree["cwd"], tree["tau_home"], tree["home"])
    assert resources.expand_input("/review main.py") == "Review main.py carefully."
    assert resources.expand_input("/ship v1 now") == "Ship v1 now."
    assert "Steps for deploy." in resources.expand_input("/skill:deploy to staging")
    assert resources.expand_input("/skill:deploy to staging").endswith("\n\nto staging")
    assert resources.expand_input("/nothing here") == "/nothing here"


def test_switches_and_flags(tree: dict[str, Path]) -> None:
    write(tree["cwd"] / "persona.md", "Persona from a file.\n")
    resources = load_resources(
        tree["cwd"],
        tree["tau_home"],
        tree["home"],
        no_skills=True,
        no_prompt_templates=True,
        system_prompt_arg="persona.md",
        append_system_prompt_arg="Extra words.",
    )
    assert resources.skills == () and resources.prompt_templates == ()
    assert resources.system_prompt_override == "Persona from a file.\n"
    assert resources.append_system_prompt == ("Extra words.",)
    assert resources.diagnostics == ()
    prompt = resources.system_prompt(DEFAULT_TOOLS, date(2026, 1, 2))
    assert prompt.startswith("Persona from a file.\n\nExtra words.\n\n# Project context")
    assert resources.expand_input("/review x") == "/review x"


def test_an_empty_world_loads_nothing_and_complains_about_nothing(tmp_path: Path) -> None:
    resources = load_resources(tmp_path, tmp_path / "no-tau", tmp_path / "no-home")
    assert [f for f in resources.context_files if f.path.is_relative_to(tmp_path)] == []
    assert resources.skills == () and resources.diagnostics == ()
    assert [(t.name, t.source) for t in resources.prompt_templates] == [("init", "builtin")]


def test_relative_locations_become_absolute_skill_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "tau" / "skills" / "x" / "SKILL.md", skill_text("x", "An x."))
    monkeypatch.chdir(tmp_path)
    resources = load_resources(Path("."), Path("tau"), Path("home"))
    (skill,) = resources.skills
    assert skill.file_path == tmp_path / "tau" / "skills" / "x" / "SKILL.md"
    assert f"<location>{skill.file_path}</location>" in resources.system_prompt(
        DEFAULT_TOOLS, date(2026, 1, 2)
    )
